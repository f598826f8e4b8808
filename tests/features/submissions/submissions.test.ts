import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/web/forms/messages";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { PEL_QUESTIONS } from "~/game/pel";
import { createEvent } from "~/platform/db/factories";
import { characters, letters, merchantOrders, outbox, pels } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer({ DISCORD_WEBHOOK_URL: "http://127.0.0.1:9/webhook" });

let heldEvent: { id: string; title: string };
let upcomingEvent: { id: string; title: string };
beforeAll(async () => {
  heldEvent = await createEvent(db(), { title: "The Long Dark", date: "2025-10-17", status: "past" });
  upcomingEvent = await createEvent(db(), { title: "First Frost", date: "2099-11-20", status: "future" });
});

const pel = (overrides: Record<string, string> = {}) => ({
  submissionKey: randomUUID(),
  eventId: heldEvent.id,
  characterName: "Clara Dunmore",
  ...Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, `About ${q.key}: it was a night to remember.`])),
  ...overrides,
});

describe("post-event letters", () => {
  it("saves the member's letter once, however often the form is sent, and shares an anonymous highlight", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const fields = pel({ favoriteMoments: "The bell rang at midnight and nobody was in the tower.", userId: other.id });
    const responses = await Promise.all([1, 2, 3].map(() => postForm(app().url, "/pels", fields, member.cookie)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const rows = await db().select().from(pels).where(eq(pels.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ eventId: heldEvent.id, characterName: "Clara Dunmore" });
    expect(await db().select().from(pels).where(eq(pels.userId, other.id))).toEqual([]);

    const highlights = (await db().select().from(outbox).where(eq(outbox.kind, "discord"))).map((row) =>
      String(row.payload.content),
    );
    const highlight = highlights.find((content) => content.includes("nobody was in the tower"))!;
    expect(highlight).toContain("The Long Dark");
    expect(highlight).not.toContain("Clara");
    expect(highlight).not.toContain("Test");
    expect(highlights.filter((content) => content.includes("nobody was in the tower"))).toHaveLength(1);

    const page = await (await fetch(`${app().url}/pels`, { headers: { Cookie: member.cookie } })).text();
    expect(page).toContain("You have written 1 post-event letter.");
  });

  it("prefills the character name and refuses blanks and events that are not open for letters", async () => {
    const member = await signedInMember("player");
    await db().insert(characters).values({
      userId: member.id,
      characterName: "Silas Marsh",
      faction: "Homesteader",
      job: "Miner",
      backstory: "x",
    });
    const page = await (await fetch(`${app().url}/pels`, { headers: { Cookie: member.cookie } })).text();
    expect(page).toContain('value="Silas Marsh"');
    for (const [fields, message] of [
      [pel({ goals: "" }), MESSAGES.required],
      [pel({ eventId: upcomingEvent.id }), "Please choose one of the listed events"],
      [pel({ eventId: randomUUID() }), "Please choose one of the listed events"],
      [pel({ eventId: "'; drop table pels; --" }), MESSAGES.required],
    ] as [Record<string, string>, string][]) {
      const response = await postForm(app().url, "/pels", fields, member.cookie);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain(MESSAGES.requiredAll);
      expect(html).toContain(message);
    }
    expect(await db().select().from(pels).where(eq(pels.userId, member.id))).toEqual([]);
  });

  it("chooses the event a link names when a letter may be written about it, and marks every field required", async () => {
    const member = await signedInMember("player");
    const open = async (query: string) =>
      (await (await fetch(`${app().url}/pels${query}`, { headers: { Cookie: member.cookie } })).text()).replaceAll(
        "<!-- -->",
        "",
      );
    const chosen = (html: string) => /<option value="([^"]*)" selected="">/.exec(html)?.[1] ?? null;
    const linked = await open(`?event=${heldEvent.id}`);
    expect(chosen(linked)).toBe(heldEvent.id);
    // An event still to come, an unknown id and nonsense choose nothing.
    for (const query of [`?event=${upcomingEvent.id}`, `?event=${randomUUID()}`, "?event=%3Cscript%3E", ""])
      expect(chosen(await open(query)), query).toBe("");
    // Every control is required, each label marked, and the form says what the mark means.
    expect(linked).toContain("Every field is required, each marked with an asterisk");
    expect((linked.match(/data-required-mark=""/g) ?? []).length).toBe(2 + PEL_QUESTIONS.length);
    expect((linked.match(/<(?:select|input|textarea)[^>]* required=""/g) ?? []).length).toBe(2 + PEL_QUESTIONS.length);
  });
});

describe("merchant orders", () => {
  const order = (overrides: Record<string, string> = {}) => ({
    submissionKey: randomUUID(),
    eventId: upcomingEvent.id,
    ...overrides,
  });

  it("works the total out from the price list, whatever total or price the form claims", async () => {
    const member = await signedInMember("player");
    const response = await postForm(
      app().url,
      "/merchant-orders",
      order({
        qty_bullets: "3",
        qty_bandages: "2",
        qty_meat: "0",
        total: "0.01",
        total_price: "0.01",
        price_bullets: "0",
      }),
      member.cookie,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("$68.25");
    const [row] = await db().select().from(merchantOrders).where(eq(merchantOrders.userId, member.id));
    expect(row).toMatchObject({ items: { bullets: 3, bandages: 2 }, totalPrice: "68.25", eventId: upcomingEvent.id });
  });

  it("refuses bad quantities, unknown items, no items and a missing or closed event, saving nothing", async () => {
    const member = await signedInMember("player");
    const cases: [Record<string, string>, string][] = [
      [order({ qty_salt: "-2" }), SUBMISSION_MESSAGES.quantity],
      [order({ qty_salt: "1.5" }), SUBMISSION_MESSAGES.quantity],
      [order({ qty_salt: "1e3" }), SUBMISSION_MESSAGES.quantity],
      [order({ qty_salt: "99999" }), "Quantities must be whole numbers from 0 to 9,999"],
      [order({ qty_whiskey: "1" }), "That item is not on the merchant&#x27;s list."],
      [order(), SUBMISSION_MESSAGES.addItem],
      [order({ qty_meat: "0" }), SUBMISSION_MESSAGES.addItem],
      [order({ eventId: "", qty_meat: "1" }), SUBMISSION_MESSAGES.selectEvent],
      [order({ eventId: randomUUID(), qty_meat: "1" }), SUBMISSION_MESSAGES.selectEvent],
      [order({ eventId: heldEvent.id, qty_meat: "1" }), SUBMISSION_MESSAGES.selectEvent],
    ];
    for (const [fields, message] of cases) {
      const response = await postForm(app().url, "/merchant-orders", fields, member.cookie);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect(await db().select().from(merchantOrders).where(eq(merchantOrders.userId, member.id))).toEqual([]);
  });

  it("places one order for a double click", async () => {
    const member = await signedInMember("player");
    const fields = order({ qty_coal: "4" });
    await Promise.all([
      postForm(app().url, "/merchant-orders", fields, member.cookie),
      postForm(app().url, "/merchant-orders", fields, member.cookie),
    ]);
    expect(await db().select().from(merchantOrders).where(eq(merchantOrders.userId, member.id))).toHaveLength(1);
  });
});

describe("letters", () => {
  it("sends a letter once and asks for both fields", async () => {
    const member = await signedInMember("applicant");
    const blank = await postForm(
      app().url,
      "/letters",
      { submissionKey: randomUUID(), recipient: "", body: "  " },
      member.cookie,
    );
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain(SUBMISSION_MESSAGES.fillAllFields);
    const fields = { submissionKey: randomUUID(), recipient: "Abigail Voss", body: "Meet me at the well after dark." };
    await postForm(app().url, "/letters", fields, member.cookie);
    await postForm(app().url, "/letters", fields, member.cookie);
    const rows = await db().select().from(letters).where(eq(letters.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recipient: "Abigail Voss", body: "Meet me at the well after dark." });
  });

  it("suggests existing characters' names to members only", async () => {
    const member = await signedInMember("player");
    await db().insert(characters).values({
      userId: member.id,
      characterName: "Abigail Voss",
      faction: "Homesteader",
      job: "Barkeep",
      backstory: "x",
    });
    const found = await (
      await fetch(`${app().url}/letters/recipients?q=abig`, { headers: { Cookie: member.cookie } })
    ).json();
    expect(found).toEqual({ names: ["Abigail Voss"] });
    const wildcard = await (
      await fetch(`${app().url}/letters/recipients?q=%25`, { headers: { Cookie: member.cookie } })
    ).json();
    expect(wildcard).toEqual({ names: [] });
    const anonymous = await fetch(`${app().url}/letters/recipients?q=abig`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
  });
});
