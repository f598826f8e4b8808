import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memberRecord, memberRecordEntry } from "~/features/my-record/record.server";
import {
  applicationValues,
  createEvent,
  createProfile,
  orderValues,
  pelAnswers,
  pelValues,
  researchValues,
} from "~/platform/db/factories";
import { applications, merchantOrders, pels, research, staffReplies } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

async function page(path: string, cookie: string) {
  const response = await fetch(app().url + path, { headers: { Cookie: cookie } });
  return { status: response.status, html: await response.text() };
}

/** A page as a reader sees it: no per-request nonce, no React text-node markers. */
const readable = (html: string) => html.replaceAll(/ nonce="[^"]*"/g, "").replaceAll("<!-- -->", "");
const items = (html: string) => (html.match(/data-testid="record-item"/g) ?? []).length;

async function reply(kind: "pel" | "order" | "research", entryId: string, userId: string, body: string) {
  const staff = await createProfile(db(), { role: "cast" });
  await db().insert(staffReplies).values({ kind, entryId, userId, authorId: staff.id, body });
}

function file(userId: string, name: string) {
  return { key: `research/${userId}/${randomUUID()}.pdf`, name, type: "application/pdf", size: 2048 };
}

describe("a member's record", () => {
  it("lists their orders, letters and research, newest first, with the event, status and staff's replies, and nobody else's", async () => {
    const member = await signedInMember("player");
    const other = await createProfile(db(), { role: "player" });
    const held = await createEvent(db(), { title: "Lantern Vigil", date: "2025-03-14", status: "past" });
    const coming = await createEvent(db(), { title: "Copper Harvest", date: "2099-04-18", status: "future" });
    const at = (day: number) => new Date(Date.UTC(2025, 3, day));

    const [letter] = await db()
      .insert(pels)
      .values(pelValues(member.id, held.id, { characterName: "Ada Thorne", createdAt: at(1) }))
      .returning();
    const [collected] = await db()
      .insert(merchantOrders)
      .values(
        orderValues(member.id, coming.id, {
          items: { salt: 2 },
          totalPrice: "6.00",
          createdAt: at(2),
          handedOutAt: at(20),
        }),
      )
      .returning();
    await db()
      .insert(merchantOrders)
      .values(orderValues(member.id, coming.id, { items: { coal: 1 }, totalPrice: "5.00", createdAt: at(3) }));
    const [paper] = await db()
      .insert(research)
      .values(researchValues(member.id, held.id, file(member.id, "ore-assay.pdf"), { createdAt: at(4) }))
      .returning();
    await reply("pel", letter!.id, member.id, "The ghost in the mill was Amos all along.");
    await reply("order", collected!.id, member.id, "Salt is short this season.");

    // Another member's entries at the same events, with replies of their own.
    const [theirs] = await db()
      .insert(pels)
      .values(pelValues(other.id, held.id, { characterName: "Silas Crowe" }))
      .returning();
    await db()
      .insert(research)
      .values(researchValues(other.id, held.id, file(other.id, "secret-map.pdf")));
    await reply("pel", theirs!.id, other.id, "Silas, the sheriff is watching you.");

    const { status, html } = await page("/profile/record", member.cookie);
    expect(status).toBe(200);
    const text = readable(html);
    expect(items(html)).toBe(4);
    expect(text).toContain("All (4)");
    expect(text).toContain("Post-event letters (1)");
    expect(text).toContain("Orders (2)");
    expect(text).toContain("Research (1)");
    // Newest first: the paper, the second order, the first order, the letter.
    const order = ["ore-assay.pdf", "1 item · $5.00", "2 items · $6.00", "As Ada Thorne"].map((s) => text.indexOf(s));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const seen of [
      "Post-event letter · Lantern Vigil",
      "Merchant order · Copper Harvest",
      "Research paper · Lantern Vigil",
      "Answered",
      "Handed out",
      "To collect at the event",
      "Sent, no reply yet",
      "The ghost in the mill was Amos all along.",
      "Salt is short this season.",
    ]) {
      expect(text, seen).toContain(seen);
    }
    // Nothing of the other member's: not their letter, their paper or the reply to them.
    for (const hidden of ["Silas Crowe", "secret-map.pdf", "the sheriff is watching", theirs!.id]) {
      expect(text, hidden).not.toContain(hidden);
    }
    // Without an application, the way to one.
    expect(text).toContain("You have not applied yet.");

    // One kind at a time.
    const letters = readable((await page("/profile/record?kind=pel", member.cookie)).html);
    expect(items(letters)).toBe(1);
    expect(letters).toContain("As Ada Thorne");
    expect(letters).not.toContain("ore-assay.pdf");
    expect(letters).toContain("<title>My Record: Post-event letters · Hopewell</title>");

    // The same from the domain: the status as the member may know it, replies without who wrote them.
    const record = await memberRecord(member.id, "all", 0);
    expect(record.items.map((item) => item.kind)).toEqual(["research", "order", "order", "pel"]);
    expect(record.items.find((item) => item.kind === "pel")?.replies).toEqual([
      { id: expect.any(String), body: "The ghost in the mill was Amos all along.", createdAt: expect.any(String) },
    ]);
    expect((await memberRecord(other.id, "all", 0)).items.map((item) => item.id)).not.toContain(paper!.id);
  });

  it("opens an entry of the member's own, and answers another member's entry exactly as one that does not exist", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const held = await createEvent(db(), { title: "Ember Road", date: "2025-06-13", status: "past" });
    const [mine] = await db()
      .insert(pels)
      .values(
        pelValues(member.id, held.id, {
          answers: pelAnswers({ favoriteMoments: "Dancing at the Copper Kettle till dawn." }),
        }),
      )
      .returning();
    const [theirs] = await db()
      .insert(pels)
      .values(
        pelValues(other.id, held.id, {
          answers: pelAnswers({ favoriteMoments: "Hiding the map under the floorboards." }),
        }),
      )
      .returning();
    const [paper] = await db()
      .insert(research)
      .values(researchValues(member.id, held.id, file(member.id, "river-survey.pdf")))
      .returning();
    await reply("pel", mine!.id, member.id, "We loved the dance. The fiddler says thanks.");

    const opened = await page(`/profile/record/pel/${mine!.id}`, member.cookie);
    expect(opened.status).toBe(200);
    const text = readable(opened.html);
    expect(text).toContain("Dancing at the Copper Kettle till dawn.");
    expect(text).toContain("We loved the dance. The fiddler says thanks.");
    expect(text).toContain("Answered");
    expect(text).toContain("<title>Post-event letter: Ember Road · My Record · Hopewell</title>");
    // An order for an event gone by that staff never marked handed out says so.
    const [late] = await db()
      .insert(merchantOrders)
      .values(orderValues(member.id, held.id, { items: { meat: 1 }, totalPrice: "3.00" }))
      .returning();
    const openedOrder = readable((await page(`/profile/record/order/${late!.id}`, member.cookie)).html);
    expect(openedOrder).toMatch(/data-testid="record-status">Not handed out</);
    expect(openedOrder).toContain("The event is over and the goods were not marked handed out.");
    expect(openedOrder).toMatch(/Meat<\/th><td[^>]*>1<\/td><td[^>]*>\$3\.00 a piece<\/td><td[^>]*>\$3\.00</);
    const openedPaper = readable((await page(`/profile/record/research/${paper!.id}`, member.cookie)).html);
    expect(openedPaper).toContain(`href="/research/${paper!.id}/file"`);
    expect(openedPaper).toContain("river-survey.pdf");

    // Someone else's entry, an id of nothing, an id of the wrong kind, a kind that is not one, a malformed id.
    const nonePath = `/profile/record/pel/${randomUUID()}`;
    const none = await page(nonePath, member.cookie);
    expect(none.status).toBe(404);
    // The pages differ only where they name their own address.
    const unaddressed = (html: string, path: string) => readable(html).replaceAll(path, "<address>");
    for (const path of [
      `/profile/record/pel/${theirs!.id}`,
      `/profile/record/order/${mine!.id}`,
      `/profile/record/letter/${mine!.id}`,
      "/profile/record/pel/not-an-id",
    ]) {
      const refused = await page(path, member.cookie);
      expect(refused.status, path).toBe(404);
      expect(unaddressed(refused.html, path), path).toBe(unaddressed(none.html, nonePath));
    }
    expect(readable(none.html)).not.toContain("Hiding the map");
    expect(await memberRecordEntry(member.id, "pel", theirs!.id)).toBeNull();
    // The owner still opens theirs.
    expect((await page(`/profile/record/pel/${theirs!.id}`, other.cookie)).status).toBe(200);
  });

  it("pages a long record, ten at a time, and shows the member's application with its state", async () => {
    const member = await signedInMember("player");
    const held = await createEvent(db(), { title: "Long Winter", date: "2024-12-13", status: "past" });
    await db()
      .insert(pels)
      .values(
        Array.from({ length: 12 }, (_, n) =>
          pelValues(member.id, held.id, {
            characterName: `Writer ${n + 1}`,
            createdAt: new Date(Date.UTC(2025, 0, n + 1)),
          }),
        ),
      );
    const profile = { id: member.id, firstName: member.firstName, lastName: member.lastName, email: member.email };
    await db()
      .insert(applications)
      .values(applicationValues(profile, { status: "accepted", decidedAt: new Date() }));

    const first = readable((await page("/profile/record", member.cookie)).html);
    expect(items(first)).toBe(10);
    expect(first).toContain("As Writer 12");
    expect(first).not.toContain("As Writer 2<");
    expect(first).toContain("Page 1 of 2");
    expect(first).toContain('data-testid="application-status"');
    expect(first).toMatch(/data-testid="application-status"[^>]*>accepted</);
    expect(first).toContain("decided");

    const second = readable((await page("/profile/record?page=1", member.cookie)).html);
    expect(items(second)).toBe(2);
    expect(second).toContain("As Writer 2<");
    expect(second).toContain("As Writer 1<");
    expect(second).toContain("Page 2 of 2");
  });
});
