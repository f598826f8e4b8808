import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { MERCHANT_MESSAGES } from "~/features/club-facts/merchant/merchant.facts";
import { createEvent } from "~/platform/db/factories";
import { auditLog, merchantOrders } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

const PAGE = "/tools/club/merchant";

async function html(path: string, cookie: string): Promise<string> {
  return (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text();
}

/** The price list form's fields as a browser would send them: every row as it stands. */
async function pageFields(cookie: string): Promise<Record<string, string>> {
  return formFieldsOf(await html(PAGE, cookie));
}

/** The row of the form that holds the item `key`. */
function rowOf(fields: Record<string, string>, key: string): number {
  const n = Array.from({ length: Number(fields.count) }, (_, i) => i).find((i) => fields[`key-${i}`] === key);
  if (n === undefined) throw new Error(`no row for ${key}`);
  return n;
}

const order = (eventId: string, quantities: Record<string, string>) => ({
  submissionKey: randomUUID(),
  eventId,
  ...Object.fromEntries(Object.entries(quantities).map(([key, n]) => [`qty_${key}`, n])),
});

describe("the managers' price list page", () => {
  it("adds an item and changes a price with a preview first, refuses a stale form, and brings back the starting list", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const event = await createEvent(db(), { title: "Lantern Fair", date: "2099-05-01", status: "future" });
    const fields = await pageFields(manager.cookie);
    const last = Number(fields.count) - 1;
    const bullets = rowOf(fields, "bullets");
    expect(fields.currency).toBe("Hopewell Dollars");
    expect(fields[`price-${bullets}`]).toBe("7.75");
    expect(fields[`name-${last}`]).toBe("");

    const typed = {
      ...fields,
      currency: "Hopewell Scrip",
      [`price-${bullets}`]: "8.50",
      [`name-${last}`]: "Rye Whiskey",
      [`price-${last}`]: "12",
      [`unit-${last}`]: "bottle",
      [`position-${last}`]: "1",
    };
    const preview = await postForm(app().url, PAGE, { ...typed, intent: "preview" }, manager.cookie);
    expect(preview.status).toBe(200);
    const previewText = visibleText(await preview.text());
    expect(previewText).toContain("Preview: not saved yet");
    expect(previewText).toContain("The order form's list, prices in Hopewell Scrip:");
    expect(previewText).toMatch(/Item Price Rye Whiskey \$12\.00 \/ bottle Meat \$3\.00 \/ piece/);
    expect(previewText).toContain("20 Bullets $8.50 / pack");
    expect((await currentFacts("merchant")).version).toBe(0);
    expect(visibleText(await html("/merchant-orders", member.cookie))).not.toContain("Rye Whiskey");

    const saved = await postForm(app().url, PAGE, { ...typed, intent: "save" }, manager.cookie);
    expect(visibleText(await saved.text())).toContain("Saved: the price list is now version 1.");
    const now = await currentFacts("merchant");
    expect(now.content.currency).toBe("Hopewell Scrip");
    expect(now.content.items[0]).toEqual({
      key: "rye_whiskey",
      name: "Rye Whiskey",
      unit: "bottle",
      priceCents: 1200,
      retired: false,
      events: null,
    });
    expect(now.content.items.find((item) => item.key === "bullets")?.priceCents).toBe(850);
    expect(now.content.items).toHaveLength(19);
    // The audit row holds the list before and after.
    const [row] = await db().select().from(auditLog).where(eq(auditLog.action, "club_facts.save"));
    expect(row?.details).toMatchObject({ kind: "merchant", version: 1, before: { currency: "Hopewell Dollars" } });

    // Members see it at once, and pay the new prices.
    const form = visibleText(await html("/merchant-orders", member.cookie));
    expect(form).toContain("Rye Whiskey $12.00 / bottle");
    expect(form).toContain("20 Bullets $8.50 / pack");
    expect(form).toContain("Prices are in Hopewell Scrip");
    const placed = await postForm(
      app().url,
      "/merchant-orders",
      order(event.id, { rye_whiskey: "2", bullets: "1" }),
      member.cookie,
    );
    expect(placed.status).toBe(200);
    expect(visibleText(await placed.text())).toContain("Your total is $32.50 Hopewell Scrip.");

    // The same form again: it was opened at version 0, and version 1 is saved since.
    const stale = await postForm(app().url, PAGE, { ...typed, intent: "save" }, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");

    const back = await postForm(app().url, PAGE, { intent: "restore", restore: "0", version: "1" }, manager.cookie);
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    const restored = await currentFacts("merchant");
    expect(restored.content.currency).toBe("Hopewell Dollars");
    expect(restored.content.items.map((item) => item.key)).not.toContain("rye_whiskey");
    // The whiskey is off the list, but the order that has it reads as it was written.
    const history = visibleText(await html(PAGE, manager.cookie));
    expect(history).toMatch(/Version 2 · .+ · 18 items for sale · brought back version 0 · shown now/);
    expect(history).toMatch(/Version 1 · .+ · 19 items for sale/);
    const review = visibleText(await html(`/view-merchant-orders?event=${event.id}`, manager.cookie));
    expect(review).toContain("2 × Rye Whiskey");
    expect(review).toContain("Total: $32.50");
  });

  it("marks a price that is not one beside its field, and saves nothing", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(manager.cookie);
    const before = await currentFacts("merchant");
    const salt = rowOf(fields, "salt");
    const last = Number(fields.count) - 1;
    for (const price of ["abc", "0", "-3", "7.755", ""]) {
      const refused = await postForm(
        app().url,
        PAGE,
        { ...fields, [`price-${salt}`]: price, intent: "save" },
        manager.cookie,
      );
      expect(refused.status, price).toBe(400);
      const page = readable(await refused.text());
      expect(page).toContain("Some entries need a change: see the marked fields.");
      // The message is the price field's own, read with it.
      const input = new RegExp(`<input[^>]*name="price-${salt}"[^>]*>`).exec(page)?.[0] ?? "";
      expect(input, price).toContain('aria-invalid="true"');
      const described = /aria-describedby="([^"]+)"/.exec(input)?.[1];
      expect(page).toContain(
        `<p id="${described}" class="text-sm font-bold text-blood">${MERCHANT_MESSAGES.price}</p>`,
      );
      // What was typed is kept.
      expect(formFieldsOf(page)[`price-${salt}`]).toBe(price);
    }
    // A new row with a bad price, and one limited to events without one ticked.
    const refused = await postForm(
      app().url,
      PAGE,
      {
        ...fields,
        [`name-${last}`]: "Lamp Oil",
        [`price-${last}`]: "1.5.0",
        [`unit-${last}`]: "can",
        [`sold-${salt}`]: "chosen",
        currency: "",
        intent: "preview",
      },
      manager.cookie,
    );
    expect(refused.status).toBe(400);
    const text = visibleText(await refused.text());
    expect(text).toContain(MERCHANT_MESSAGES.price);
    expect(text).toContain(MERCHANT_MESSAGES.events);
    expect(text).toContain(MERCHANT_MESSAGES.currency);
    expect(await currentFacts("merchant")).toEqual(before);
  });

  it("retires an item: members no longer see or order it, and the orders that have it keep it", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const event = await createEvent(db(), { title: "Salt Moon", date: "2099-06-01", status: "future" });
    const earlier = await postForm(app().url, "/merchant-orders", order(event.id, { salt: "2" }), member.cookie);
    expect(earlier.status).toBe(200);

    const fields = await pageFields(manager.cookie);
    const salt = rowOf(fields, "salt");
    const saved = await postForm(
      app().url,
      PAGE,
      { ...fields, [`retired-${salt}`]: "on", intent: "save" },
      manager.cookie,
    );
    expect(visibleText(await saved.text())).toContain("Saved: the price list is now version");
    expect((await currentFacts("merchant")).content.items.find((item) => item.key === "salt")?.retired).toBe(true);
    const editor = visibleText(await html(PAGE, manager.cookie));
    expect(editor).toContain(`Item ${salt + 1} (retired)`);

    expect(visibleText(await html("/merchant-orders", member.cookie))).not.toContain("Quantity of Salt");
    const refused = await postForm(app().url, "/merchant-orders", order(event.id, { salt: "1" }), member.cookie);
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain("Salt is no longer sold. Please take it off your order.");
    const orders = await db().select().from(merchantOrders).where(eq(merchantOrders.userId, member.id));
    expect(orders).toHaveLength(1);
    const review = visibleText(await html(`/view-merchant-orders?event=${event.id}`, manager.cookie));
    expect(review).toContain("2 × Salt");
    expect(review).toContain("Total: $6.00 Hopewell Dollars");
  });

  it("limits an item to one event: listed for it alone, and refused for another", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const fair = await createEvent(db(), { title: "Coal Fair", date: "2099-07-01", status: "future" });
    const other = await createEvent(db(), { title: "Quiet Week", date: "2099-08-01", status: "future" });
    const fields = await pageFields(manager.cookie);
    const coal = rowOf(fields, "coal");
    // Each upcoming event is a box to tick, in every row.
    expect(fields).not.toHaveProperty(`event-${coal}-${fair.id}`);
    expect(await html(PAGE, manager.cookie)).toContain(`name="event-${coal}-${fair.id}"`);
    const saved = await postForm(
      app().url,
      PAGE,
      { ...fields, [`sold-${coal}`]: "chosen", [`event-${coal}-${fair.id}`]: "on", intent: "save" },
      manager.cookie,
    );
    expect(visibleText(await saved.text())).toContain("Saved: the price list is now version");
    expect((await currentFacts("merchant")).content.items.find((item) => item.key === "coal")?.events).toEqual([
      fair.id,
    ]);
    // The editor shows it ticked; the order form says where it is sold.
    const again = await pageFields(manager.cookie);
    expect(again[`sold-${coal}`]).toBe("chosen");
    expect(again[`event-${coal}-${fair.id}`]).toBe("on");
    expect(again).not.toHaveProperty(`event-${coal}-${other.id}`);
    expect(visibleText(await html("/merchant-orders", member.cookie))).toMatch(
      /Coal Only at Coal Fair \(Wednesday, July 1, 2099\) \$5\.00 \/ bag/,
    );

    const refused = await postForm(app().url, "/merchant-orders", order(other.id, { coal: "1" }), member.cookie);
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(visibleText(refusedPage)).toContain(
      "Coal is not sold at Quiet Week. Please take it off your order or choose another event.",
    );
    // Sent back with the other event chosen, the form lists only what is sold there.
    expect(visibleText(refusedPage)).not.toMatch(/Coal \$5\.00/);
    const placed = await postForm(app().url, "/merchant-orders", order(fair.id, { coal: "3" }), member.cookie);
    expect(placed.status).toBe(200);
    const [row] = await db().select().from(merchantOrders).where(eq(merchantOrders.userId, member.id));
    expect(row).toMatchObject({
      eventId: fair.id,
      items: { coal: 3 },
      pricedItems: { coal: { name: "Coal", unit: "bag", priceCents: 500 } },
      totalPrice: "15.00",
    });
  });

  it("keeps cast out", async () => {
    const cast = await signedInMember("cast");
    const response = await fetch(`${app().url}${PAGE}`, { headers: { Cookie: cast.cookie }, redirect: "manual" });
    expect(response.status).toBe(302);
    const post = await postForm(app().url, PAGE, { intent: "restore", restore: "0", version: "0" }, cast.cookie);
    expect(post.status).toBeGreaterThanOrEqual(300);
    expect(post.status).not.toBe(200);
  });
});
