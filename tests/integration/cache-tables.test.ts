import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cacheReadingNow, changeAwareCaches, type ChangeAwareCache } from "~/platform/db/changes.server";
import { rawRows } from "~/platform/db/client.server";
import {
  applicationValues,
  attendanceValues,
  characterValues,
  createEvent,
  letterValues,
  orderValues,
  pelValues,
  researchValues,
} from "~/platform/db/factories";
import {
  applications,
  characters,
  costumePhotos,
  costumeReviews,
  eventAttendance,
  letters,
  merchantOrders,
  pels,
  research,
  reviewQueue,
  staffReplies,
} from "~/platform/db/schema";
import { answersForMember } from "~/features/review/staff-replies.server";
import { calendarFeedPath } from "~/features/events/calendar-feed.server";
import { profileOverview } from "~/features/members/profiles.server";
import { eventDaySheet } from "~/features/event-day/event-day.server";
import { memberEventStatuses } from "~/features/events/event-statuses.server";
import { costumesWaitingByEvent } from "~/features/costume/costume-review.server";
import { listUpcomingEvents } from "~/features/events/events.server";
import { letterBox, unreadLetterCount } from "~/features/letters/letter-box.server";
import { listCast, listPlayers } from "~/features/members/members.server";
import { pendingApplicationCount } from "~/features/members/pending-applications.server";
import { newEntryCounts, queueHolders } from "~/features/review/review-queue.server";
import { loadReview, orderReview, pelReview, researchReview } from "~/features/review/event-reviews.server";
import { letterQueues, listLetters } from "~/features/review/letter-review.server";
import { getSessionUser } from "~/identity/session.server";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

/**
 * Every kept read (ChangeAwareCache) trusts its copy until the database announces a write to
 * one of its tables. A table it reads but does not list, or one it lists that announces
 * nothing, would leave stale copies for the whole of its time limit. This file runs every
 * kept read on a database whose queries are logged, asks PostgreSQL which tables each query
 * reads (EXPLAIN), and checks them against the cache's list and the database's triggers.
 */

// Every server module, so that every kept read in the app is made (each registers itself).
import.meta.glob("../../app/**/*.server.ts", { eager: true });

const queriesOf = new Map<ChangeAwareCache<unknown>, { query: string; params: unknown[] }[]>();
const db = withTestDatabase({
  logger: {
    logQuery(query, params) {
      const cache = cacheReadingNow();
      if (!cache) return;
      queriesOf.set(cache, [...(queriesOf.get(cache) ?? []), { query, params }]);
    },
  },
});

type Plan = { "Relation Name"?: string; Plans?: Plan[] };
function relationsIn(plan: Plan, into = new Set<string>()): Set<string> {
  if (plan["Relation Name"]) into.add(plan["Relation Name"]);
  for (const child of plan.Plans ?? []) relationsIn(child, into);
  return into;
}

/** The tables `query` reads, as PostgreSQL's planner has it (subqueries, joins and all). */
async function tablesRead(query: string, params: unknown[]): Promise<Set<string>> {
  const client = (
    db() as unknown as {
      $client: { query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
    }
  ).$client;
  const { rows } = await client.query(`explain (format json) ${query}`, params);
  const cell = Object.values(rows[0]!)[0];
  const plans = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: Plan }[];
  const tables = new Set<string>();
  for (const { Plan } of plans) relationsIn(Plan, tables);
  return tables;
}

/** Tables with a trigger announcing every kind of write (hopewell_announce_change). */
async function announcingTables(): Promise<Set<string>> {
  const rows = await rawRows<{ table: string; definition: string }>(
    db(),
    sql`select c.relname as "table", pg_get_triggerdef(t.oid) as definition
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where p.proname = 'hopewell_announce_change' and not t.tgisinternal and t.tgenabled <> 'D'`,
  );
  // A trigger on some kinds of write only (say INSERT) would leave the others unannounced.
  const onEveryWrite = (definition: string) =>
    / AFTER /.test(definition) &&
    ["INSERT", "UPDATE", "DELETE", "TRUNCATE"].every((kind) => new RegExp(`\\b${kind}\\b`).test(definition));
  return new Set(rows.filter((row) => onEveryWrite(row.definition)).map((row) => row.table));
}

/** Makes every kept read in the app read at least once, with data for each part of its query. */
async function runEveryKeptRead() {
  const member = await signedInMember("manager");
  const event = await createEvent(db(), { status: "past" });
  await createEvent(db(), { status: "future" });
  await db()
    .insert(applications)
    .values(applicationValues({ ...member, lastName: "Manager" }));
  await db().insert(characters).values(characterValues(member.id));
  await db().insert(eventAttendance).values(attendanceValues(member.id, event.id));
  await db().insert(pels).values(pelValues(member.id, event.id));
  await db().insert(merchantOrders).values(orderValues(member.id, event.id));
  await db()
    .insert(research)
    .values(
      researchValues(member.id, event.id, {
        key: "research/kept-reads.pdf",
        name: "notes.pdf",
        type: "application/pdf",
        size: 4,
      }),
    );
  await db().insert(letters).values(letterValues(member.id));
  await db()
    .insert(letters)
    .values(letterValues(member.id, { recipientId: member.id, status: "delivered", deliveredAt: new Date() }));
  await db()
    .insert(letters)
    .values(letterValues(member.id, { status: "to_staff" }));
  const [pel] = await db().select({ id: pels.id }).from(pels);
  await db()
    .insert(reviewQueue)
    .values({ kind: "pel", entryId: pel!.id, userId: member.id, status: "in_progress", assigneeId: member.id });
  const [order] = await db().select({ id: merchantOrders.id }).from(merchantOrders);
  const [paper] = await db().select({ id: research.id }).from(research);
  for (const [kind, entryId] of [
    ["pel", pel!.id],
    ["order", order!.id],
    ["research", paper!.id],
  ] as const) {
    await db()
      .insert(staffReplies)
      .values({
        kind,
        entryId,
        userId: member.id,
        authorId: member.id,
        body: `About your ${kind}.`,
        submissionKey: crypto.randomUUID(),
      });
  }
  await db()
    .insert(costumePhotos)
    .values({
      userId: member.id,
      eventId: event.id,
      fileKey: "costumes/kept-reads.jpg",
      thumbKey: "costumes/kept-reads-thumb.jpg",
      fileType: "image/jpeg",
      fileSize: 4,
      width: 1,
      height: 1,
      createdAt: new Date(Date.now() - 60_000),
    });
  await db()
    .insert(costumeReviews)
    .values({ userId: member.id, eventId: event.id, verdict: "approved", reviewedBy: member.id });

  const signedIn = await getSessionUser(
    new Request("http://localhost/profile", { headers: { Cookie: member.cookie } }),
  );
  expect(signedIn.user?.id).toBe(member.id);
  expect((await profileOverview(member.id)).character).not.toBeNull();
  expect(await listUpcomingEvents()).toHaveLength(1);
  const sheet = await eventDaySheet(signedIn.user!, event.id);
  expect(sheet?.attendees).toBe(1);
  expect(sheet?.cabins[0]?.attendees[0]).toMatchObject({ costume: "approved", orders: [expect.anything()] });
  const status = (await memberEventStatuses(member.id, [event], event.date)).byEvent[event.id];
  expect(status?.registration).toBe("registered");
  expect(status?.costumePhoto).toBe("approved");
  // A manager counts as cast, not as a player.
  expect((await listPlayers({})).total).toBe(0);
  expect((await listCast({})).total).toBe(1);
  expect((await listLetters({})).total).toBe(3);
  expect(await unreadLetterCount(member.id)).toBe(1);
  expect(await letterBox(member.id, 0)).toMatchObject({
    total: 1,
    received: [{ unread: true }],
    sent: [expect.anything(), expect.anything(), expect.anything()],
  });
  expect(await letterQueues()).toEqual({ held: 0, toStaff: 1 });
  expect(await pendingApplicationCount()).toBe(1);
  expect(await newEntryCounts()).toEqual({ pel: 1, order: 1, research: 1, letter: 1, costume: 1 });
  expect(await queueHolders("pel", null)).toEqual([{ id: member.id, name: expect.any(String) }]);
  for (const review of [pelReview, orderReview, researchReview]) {
    const loaded = await loadReview({ event: event.id, page: 0 }, review as Parameters<typeof loadReview>[1]);
    expect(loaded.groups.map((group) => group.id)).toEqual([event.id]);
    expect(loaded.total).toBe(1);
    // Filtered, the listed events' entries that pass are counted (the PEL is in progress, the others new).
    const filtered = await loadReview({ event: event.id, page: 0 }, review as Parameters<typeof loadReview>[1], {
      filter: { status: "new", assignee: "any" },
      viewerId: member.id,
    });
    expect(filtered.passing).toEqual(review === pelReview ? {} : { [event.id]: 1 });
  }
  // The photo was approved after it was sent: nothing waits at its event.
  expect(await costumesWaitingByEvent([event.id])).toEqual({});
  expect(await calendarFeedPath(member.id)).toContain(`/events/calendar/${member.id}/`);
  expect((await answersForMember(member.id)).map((answer) => [answer.kind, answer.eventTitle])).toEqual(
    expect.arrayContaining([
      ["pel", expect.any(String)],
      ["order", expect.any(String)],
      ["research", expect.any(String)],
    ]),
  );
  expect((await currentFacts("faq")).version).toBe(0);
}

describe("every read kept in memory", () => {
  it("lists every table its queries read, and each of those tables announces its writes", async () => {
    await runEveryKeptRead();
    const announcing = await announcingTables();
    const caches = changeAwareCaches();
    expect(caches.length).toBeGreaterThanOrEqual(9);
    for (const cache of caches) {
      const queries = queriesOf.get(cache) ?? [];
      // A new kept read must be run above, or this test would vouch for it unseen.
      expect(queries.length, `${cache.name}: not run by this test`).toBeGreaterThan(0);
      const read = new Set<string>();
      for (const { query, params } of queries) for (const table of await tablesRead(query, params)) read.add(table);
      expect(
        [...read].filter((table) => !cache.tables.includes(table)),
        `${cache.name}: tables read but not listed`,
      ).toEqual([]);
      expect(
        cache.tables.filter((table) => !announcing.has(table)),
        `${cache.name}: tables listed but announcing no writes`,
      ).toEqual([]);
    }
  });
});
