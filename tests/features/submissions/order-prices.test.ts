import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFacts, saveFacts } from "~/features/club-facts/club-facts.server";
import { createEvent } from "~/platform/db/factories";
import { eventAttendance, merchantOrders } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

async function html(path: string, cookie: string): Promise<string> {
  return (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text();
}

describe("an order and the price list it was placed from", () => {
  it("reads as written after a price rise and a rename, while a new order pays the new price", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const event = await createEvent(db(), { title: "Powder Run", date: "2099-09-12", status: "future" });
    const place = (quantities: Record<string, string>) =>
      postForm(
        app().url,
        "/merchant-orders",
        { submissionKey: randomUUID(), eventId: event.id, ...quantities },
        member.cookie,
      );
    expect((await place({ qty_bullets: "2", qty_salt: "1" })).status).toBe(200);

    // The manager raises the bullets' price, renames them and retires the salt.
    const { version, content } = await currentFacts("merchant");
    const saved = await saveFacts(
      "merchant",
      {
        ...content,
        items: content.items.map((item) =>
          item.key === "bullets"
            ? { ...item, name: "20 Brass Bullets", priceCents: 900 }
            : item.key === "salt"
              ? { ...item, retired: true }
              : item,
        ),
      },
      manager,
      version,
    );
    expect(saved.ok).toBe(true);

    const placed = await place({ qty_bullets: "2" });
    expect(visibleText(await placed.text())).toContain("Your total is $18.00 Hopewell Dollars.");
    // Salt is retired: a new order of it is refused, and saves nothing.
    const refused = await place({ qty_bullets: "1", qty_salt: "1" });
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain("Salt is no longer sold. Please take it off your order.");

    const [before, after, ...more] = await db()
      .select()
      .from(merchantOrders)
      .where(eq(merchantOrders.userId, member.id))
      .orderBy(merchantOrders.createdAt);
    expect(more).toEqual([]);
    expect(before).toMatchObject({
      items: { bullets: 2, salt: 1 },
      pricedItems: {
        bullets: { name: "20 Bullets", unit: "pack", priceCents: 775 },
        salt: { name: "Salt", unit: "bag", priceCents: 300 },
      },
      totalPrice: "18.50",
    });
    expect(after).toMatchObject({
      items: { bullets: 2 },
      pricedItems: { bullets: { name: "20 Brass Bullets", unit: "pack", priceCents: 900 } },
      totalPrice: "18.00",
    });

    // Staff's review: each order with the names and total it was written with.
    const review = visibleText(await html(`/view-merchant-orders?event=${event.id}`, manager.cookie));
    expect(review).toMatch(/2 × 20 Brass Bullets Total: \$18\.00 Hopewell Dollars/);
    expect(review).toMatch(/(1 × Salt 2 × 20 Bullets|2 × 20 Bullets 1 × Salt) Total: \$18\.50 Hopewell Dollars/);

    // The member's record: each line at the price it was ordered at.
    const older = readable(await html(`/profile/record/order/${before!.id}`, member.cookie));
    expect(older).toMatch(/20 Bullets<\/th><td[^>]*>2<\/td><td[^>]*>\$7\.75 a pack<\/td><td[^>]*>\$15\.50</);
    expect(older).toMatch(/Salt<\/th><td[^>]*>1<\/td><td[^>]*>\$3\.00 a bag<\/td><td[^>]*>\$3\.00</);
    expect(older).toMatch(/data-testid="order-items-total">\$18\.50</);
    expect(older).not.toContain("Brass");
    const newer = readable(await html(`/profile/record/order/${after!.id}`, member.cookie));
    expect(newer).toMatch(/20 Brass Bullets<\/th><td[^>]*>2<\/td><td[^>]*>\$9\.00 a [^<]+<\/td><td[^>]*>\$18\.00</);
    expect(newer).toMatch(/data-testid="order-items-total">\$18\.00</);

    // The managers' page of the member, likewise.
    const admin = visibleText(await html(`/tools/members/${member.id}`, manager.cookie));
    expect(admin).toMatch(/2 × 20 Brass Bullets Total: \$18\.00 Hopewell Dollars/);
    expect(admin).toMatch(/(1 × Salt 2 × 20 Bullets|2 × 20 Bullets 1 × Salt) Total: \$18\.50 Hopewell Dollars/);

    // The event-day sheet, where the goods are handed over.
    await db().insert(eventAttendance).values({ eventId: event.id, userId: member.id, cabin: "Camping" });
    const sheet = visibleText(await html(`/tools/event-day/${event.id}`, manager.cookie));
    expect(sheet).toContain("2 × 20 Brass Bullets");
    expect(sheet).toContain("1 × Salt");
    expect(sheet).toContain("2 × 20 Bullets");
    expect(sheet).toContain("To collect in all $36.50 Hopewell Dollars");
  });
});
