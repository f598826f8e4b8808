import { builtInPricedItems } from "~/game/merchant";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PEL_QUESTIONS } from "~/game/pel";
import { createEvent, createProfile, pelAnswers } from "~/platform/db/factories";
import { events, letters, merchantOrders, pels, profiles, research, reviewQueue } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();
const at = (iso: string) => new Date(iso);

describe("the staff review pages", () => {
  it("show ten events at a time, newest first, and open an older event on its own page of events", async () => {
    const cast = await signedInMember("cast");
    const author = await createProfile(db(), { firstName: "Ezra", lastName: "Vance", role: "player" });
    // Twelve events with one order each, in a year of their own so no other test's events come between.
    const made = [];
    for (let month = 1; month <= 12; month++) {
      const event = await createEvent(db(), {
        title: `Paging Night ${month}`,
        date: `1990-${String(month).padStart(2, "0")}-15`,
        status: "past",
      });
      await db()
        .insert(merchantOrders)
        .values({
          submissionKey: randomUUID(),
          userId: author.id,
          eventId: event.id,
          items: { salt: 1 },
          pricedItems: builtInPricedItems({ salt: 1 }),
          totalPrice: "1.25",
        });
      made.push(event);
    }
    const get = async (path: string) => (await fetch(app().url + path, { headers: { Cookie: cast.cookie } })).text();
    const countGroups = (html: string) => (html.match(/aria-expanded=/g) ?? []).length;

    const first = await get("/view-merchant-orders");
    expect(countGroups(first)).toBe(10);
    expect(first).toContain('aria-label="Events"');
    expect(first).toContain("Older events");
    expect(first).not.toContain("Newer events");

    // The last page holds the oldest: January is the oldest of all the events in this database.
    const pages = Number(first.match(/Events page (?:<!-- -->)?1(?:<!-- -->)? of (?:<!-- -->)?(\d+)/)![1]);
    const last = await get(`/view-merchant-orders?groups=${pages - 1}`);
    expect(last).toContain("Paging Night 1<");
    expect(last).toContain("Newer events");
    expect(last).not.toContain("Older events");
    expect(countGroups(last)).toBeLessThanOrEqual(10);

    // Opening the oldest event shows the page of events that holds it, opened, with its entry.
    const opened = await get(`/view-merchant-orders?event=${made[0]!.id}`);
    expect(opened).toContain('aria-expanded="true"');
    expect(opened).toContain("Paging Night 1<");
    expect(opened).toContain("1 × Salt");
    expect(opened).toMatch(new RegExp(`Events page (?:<!-- -->)?${pages}(?:<!-- -->)? of`));
    // A page of events past the last shows the last; nonsense shows the first.
    expect(await get("/view-merchant-orders?groups=999")).toContain("Paging Night 1<");
    expect(countGroups(await get("/view-merchant-orders?groups=nonsense"))).toBe(10);
  });

  it("group submissions by event, open one event at a time, newest first, with the author's name", async () => {
    const cast = await signedInMember("cast");
    const older = await createEvent(db(), { title: "Silver Fever", date: "2025-05-16", status: "past" });
    const newer = await createEvent(db(), { title: "Blood Moon", date: "2025-09-12", status: "past" });
    const clara = await createProfile(db(), { firstName: "Clara", lastName: "Dunmore", role: "player" });
    const amos = await createProfile(db(), { firstName: "Amos", lastName: "Pickett", role: "player" });
    const answers = { answers: pelAnswers(Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, `${q.key} answer`]))) };
    await db()
      .insert(pels)
      .values([
        {
          ...answers,
          submissionKey: randomUUID(),
          userId: clara.id,
          eventId: newer.id,
          characterName: "Sister Clara",
          createdAt: at("2025-09-14T12:00:00Z"),
        },
        {
          ...answers,
          submissionKey: randomUUID(),
          userId: amos.id,
          eventId: newer.id,
          characterName: "Old Amos",
          createdAt: at("2025-09-15T12:00:00Z"),
        },
        {
          ...answers,
          submissionKey: randomUUID(),
          userId: amos.id,
          eventId: older.id,
          characterName: "Old Amos",
          createdAt: at("2025-05-18T12:00:00Z"),
        },
      ]);
    const get = async (path: string) => (await fetch(app().url + path, { headers: { Cookie: cast.cookie } })).text();

    const closed = await get("/view-pels");
    expect(closed.indexOf("Blood Moon")).toBeLessThan(closed.indexOf("Silver Fever"));
    expect(closed).not.toContain("Sister Clara");
    const opened = await get(`/view-pels?event=${newer.id}`);
    // Only the opened event's entries are counted.
    expect(opened).toContain("2 letters");
    expect(opened).not.toContain("1 letter<");
    expect(opened.indexOf("Old Amos")).toBeLessThan(opened.indexOf("Sister Clara"));
    expect(opened).toContain("Clara Dunmore");
    expect(opened).toContain("favoriteMoments answer");

    // Ten letters to a page: eleven make two pages, the second holding the oldest.
    await db()
      .insert(pels)
      .values(
        Array.from({ length: 9 }, (_, i) => ({
          ...answers,
          submissionKey: randomUUID(),
          userId: clara.id,
          eventId: newer.id,
          characterName: `Echo ${i}`,
          createdAt: at(`2025-09-2${i}T12:00:00Z`),
        })),
      );
    const first = await get(`/view-pels?event=${newer.id}`);
    expect(first).toContain("11 letters");
    expect(first).toMatch(/Page (<!-- -->)?1(<!-- -->)? of (<!-- -->)?2/);
    expect(first.match(/<article/g)).toHaveLength(10);
    const second = await get(`/view-pels?event=${newer.id}&page=1`);
    expect(second.match(/<article/g)).toHaveLength(1);
    expect(second).toContain("Sister Clara");

    await db()
      .insert(merchantOrders)
      .values({
        submissionKey: randomUUID(),
        userId: clara.id,
        eventId: newer.id,
        items: { bullets: 3, salt: 1 },
        pricedItems: builtInPricedItems({ bullets: 3, salt: 1 }),
        totalPrice: "26.25",
      });
    const orders = await get(`/view-merchant-orders?event=${newer.id}`);
    expect(orders).toContain("3 × 20 Bullets");
    expect(orders).toContain("1 × Salt");
    expect(orders).toContain("Total: $26.25 Hopewell Dollars");

    const [paper] = await db()
      .insert(research)
      .values({
        submissionKey: randomUUID(),
        userId: amos.id,
        eventId: older.id,
        sources: "The ledger",
        research: "It glows",
        fileKey: `research/${amos.id}/${"a".repeat(32)}.png`,
        fileName: "glow.png",
        fileType: "image/png",
        fileSize: 10,
      })
      .returning();
    const papers = await get(`/view-research?event=${older.id}`);
    expect(papers).toContain("It glows");
    expect(papers).toContain(`href="/research/${paper!.id}/file"`);
  });

  it("lists letters newest first and finds them by sender, recipient or text", async () => {
    const manager = await signedInMember("manager");
    const hattie = await createProfile(db(), { firstName: "Hattie", lastName: "Quill", role: "player" });
    await db()
      .insert(letters)
      .values([
        {
          submissionKey: randomUUID(),
          userId: hattie.id,
          recipient: "Sheriff Holt",
          body: "The vault was open.",
          createdAt: at("2025-06-01T10:00:00Z"),
        },
        {
          submissionKey: randomUUID(),
          userId: hattie.id,
          recipient: "Abigail Voss",
          body: "Meet me at the well.",
          createdAt: at("2025-06-02T10:00:00Z"),
        },
      ]);
    const get = async (q: string, page = 0) =>
      (
        await fetch(`${app().url}/view-letters?q=${encodeURIComponent(q)}&page=${page}`, {
          headers: { Cookie: manager.cookie },
        })
      ).text();
    const all = await get("");
    expect(all.indexOf("To Abigail Voss")).toBeLessThan(all.indexOf("To Sheriff Holt"));
    expect(await get("quill")).toContain("2 letters matching");
    // Past the last page of results, the count still says how many there are.
    const past = await get("quill", 3);
    expect(past).toContain("2 letters matching");
    expect(past).toContain("Past the last page (1)");
    expect(past).toMatch(/href="\/view-letters\?q=quill&amp;page=0"[^>]*>Last page</);
    expect(await get("zzzz")).toContain("0 letters matching");
    expect(await get("sheriff")).not.toContain("Abigail");
    expect(await get("the well")).toContain("To Abigail Voss");
    // Case does not matter, and LIKE's wildcards are taken literally.
    expect(await get("VAULT Was")).toContain("To Sheriff Holt");
    expect(await get("VAULT Was")).toContain("1 letter matching");
    expect(await get("v_ult")).toContain("0 letters matching");
  });

  it("count a letter search up to 1,000 matches, and say when there are more", async () => {
    const manager = await signedInMember("manager");
    const writer = await createProfile(db(), { firstName: "Mercy", lastName: "Lamb", role: "player" });
    const letter = (n: number) => ({
      submissionKey: randomUUID(),
      userId: writer.id,
      recipient: "Doc Marsh",
      body: `Lamplighter note ${n}.`,
      createdAt: at("2024-01-01T00:00:00Z"),
    });
    await db()
      .insert(letters)
      .values(Array.from({ length: 1000 }, (_, n) => letter(n)));
    const get = async (page = 0) =>
      (
        await fetch(`${app().url}/view-letters?q=lamplighter&page=${page}`, { headers: { Cookie: manager.cookie } })
      ).text();
    const flat = (html: string) => html.replaceAll("<!-- -->", "");

    const exactly = flat(await get());
    expect(exactly).toContain("1,000 letters matching “lamplighter”");
    expect(exactly).not.toContain("More than");

    await db().insert(letters).values(letter(1000));
    const more = flat(await get());
    expect(more).toContain("More than 1,000 letters match “lamplighter”");
    expect(more).toContain("Page 1 of 40");
    // The pager stops at the cap: its last page has letters and no next page.
    const last = flat(await get(39));
    expect((last.match(/>Lamplighter note \d+\.</g) ?? []).length).toBe(25);
    expect(last).toContain("Page 40 of 40");
    expect(last).not.toContain(">Next<");
    expect(await db().$count(letters, eq(letters.userId, writer.id))).toBe(1001);
  });

  it("show on the next request what was sent in or changed elsewhere, though their groups and counts are kept in memory", async () => {
    const manager = await signedInMember("manager");
    const get = async (path: string) => (await fetch(app().url + path, { headers: { Cookie: manager.cookie } })).text();
    const event = await createEvent(db(), { title: "Dust Devils", date: "2025-07-11", status: "past" });
    const rufus = await createProfile(db(), { firstName: "Rufus", lastName: "Crane", role: "player" });
    const answers = { answers: pelAnswers(Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, "seen"]))) };
    const pel = () => ({
      ...answers,
      submissionKey: randomUUID(),
      userId: rufus.id,
      eventId: event.id,
      characterName: "Rufus",
    });
    const number = (text: string) => Number(text.replaceAll(",", ""));
    const letterCount = async () => number((await get("/view-letters")).match(/([\d,]+) letters?</)![1]!);
    const playerCount = async () => number((await get("/tools?tab=players")).match(/([\d,]+) players?</)![1]!);

    expect(await get("/view-pels")).not.toContain("Dust Devils");
    const letters0 = await letterCount();
    const players0 = await playerCount();
    expect(await letterCount()).toBe(letters0);

    // Written straight to the database, as another app process would.
    await db().insert(pels).values(pel());
    expect(await get("/view-pels")).toContain("Dust Devils");
    expect(await get(`/view-pels?event=${event.id}`)).toContain("1 letter<");
    // Each event's count of new entries follows the entries and the queue as well.
    const newCount = async () => {
      const html = await get("/view-pels");
      const at = html.indexOf("Dust Devils<");
      return html.slice(at, html.indexOf("</li>", at)).match(/· (\d+) new</)?.[1];
    };
    expect(await newCount()).toBe("1");
    await db().insert(pels).values(pel());
    expect(await get(`/view-pels?event=${event.id}`)).toContain("2 letters<");
    expect(await newCount()).toBe("2");
    const [taken] = await db().select({ id: pels.id }).from(pels).where(eq(pels.eventId, event.id)).limit(1);
    await db()
      .insert(reviewQueue)
      .values({ kind: "pel", entryId: taken!.id, userId: rufus.id, status: "in_progress", assigneeId: rufus.id });
    expect(await newCount()).toBe("1");
    await db().update(events).set({ title: "Dust Storm" }).where(eq(events.id, event.id));
    expect(await get("/view-pels")).toContain("Dust Storm");

    await db()
      .insert(letters)
      .values({ submissionKey: randomUUID(), userId: rufus.id, recipient: "Doc Marsh", body: "Come quick." });
    expect(await letterCount()).toBe(letters0 + 1);
    await db().delete(profiles).where(eq(profiles.id, rufus.id));
    expect(await letterCount()).toBe(letters0);
    expect(await playerCount()).toBe(players0 - 1);
    expect(await get("/view-pels")).not.toContain("Dust Storm");
  });

  it("are for cast and managers only", async () => {
    const player = await signedInMember("player");
    for (const path of ["/view-pels", "/view-merchant-orders", "/view-research", "/view-letters", "/attendance"]) {
      const response = await fetch(app().url + path, { headers: { Cookie: player.cookie }, redirect: "manual" });
      expect(response.headers.get("Location"), path).toBe("/");
    }
  });
});
