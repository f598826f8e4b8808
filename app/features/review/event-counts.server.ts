import { and, count, desc, eq, exists, getTableName, inArray, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { ReplyKind } from "~/game/review-queue";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { events, merchantOrders, pels, research, reviewQueue } from "~/platform/db/schema";
import { queueRowFilterSql, type QueueFilter } from "./queue-filter.server";

/**
 * The by-event review pages' counts (event-reviews.server.ts reads the entries): which events
 * have entries of a kind, how many one has, and how many of each pass a queue filter.
 */

type EventGroup = { id: string; title: string; date: string };

export type ByEvent = PgTable & { id: PgColumn; eventId: PgColumn };

/**
 * Which events have entries of each kind, and how many an event has, are kept per table
 * until a write to it (or to the events) is announced (migration 0004): every review page
 * reads them, and they change only when someone sends something in.
 */
/** A minute: a new entry may take that long to show on another instance whose announcements were lost. */
export const REVIEW_MAX_AGE_MS = 60_000;
/** Made when the module loads, so every kept read is known before any page asks (tests list them). */
function keptPerTable<V>(what: string, alsoReads: readonly string[] = []): Map<string, ChangeAwareCache<V>> {
  return new Map(
    [pels, merchantOrders, research].map((table) => {
      const name = getTableName(table);
      return [
        name,
        new ChangeAwareCache<V>({
          name: `${name}: ${what}`,
          tables: [name, "events", ...alsoReads],
          maxAgeMs: REVIEW_MAX_AGE_MS,
          maxEntries: 1_000,
        }),
      ];
    }),
  );
}
const keptGroups = keptPerTable<EventGroup[]>("events with entries");
const keptCounts = keptPerTable<number>("entries per event");
const keptPassing = keptPerTable<Record<string, number>>("entries passing a queue filter per event", ["review_queue"]);

function keptFor<V>(kept: Map<string, ChangeAwareCache<V>>, table: ByEvent): ChangeAwareCache<V> {
  const cache = kept.get(getTableName(table));
  if (!cache) throw new Error(`no kept reads for ${getTableName(table)}`);
  return cache;
}

/**
 * Events that have entries of this kind, latest first: the groups of a review page.
 * One indexed probe per event; entries are only counted for the event that is opened,
 * so the page costs the same with twenty thousand entries as with twenty.
 */
export function eventsWithEntries(table: ByEvent) {
  return keptFor(keptGroups, table).get("all", async () => {
    const db = await database();
    return db
      .select({ id: events.id, title: events.title, date: events.date })
      .from(events)
      .where(
        exists(
          db
            .select({ one: sql`1` })
            .from(table)
            .where(eq(table.eventId, events.id)),
        ),
      )
      .orderBy(desc(events.date));
  });
}

export function entriesAt(table: ByEvent, eventId: string) {
  return keptFor(keptCounts, table).get(eventId, async () => {
    const db = await database();
    const [row] = await db.select({ n: count() }).from(table).where(eq(table.eventId, eventId));
    return row?.n ?? 0;
  });
}

/** The filter whose count each listed event shows: its new entries. */
export const NEW_ONLY: QueueFilter = { status: "new", assignee: "any" };

/**
 * How many entries of each of these events pass a queue filter (events with none are absent):
 * the entries joined to their queue rows in one grouped count (a probe of the queue per entry
 * took 53-80 ms for the ten events of a page holding 20,000 letters; the join 12-22 ms), kept
 * until a write to the entries, the queue or the events.
 */
export function passingByEvent(
  kind: ReplyKind,
  table: ByEvent,
  eventIds: readonly string[],
  filter: QueueFilter,
  viewerId: string,
): Promise<Record<string, number>> {
  const only = queueRowFilterSql(filter, viewerId);
  if (eventIds.length === 0 || !only) return Promise.resolve({});
  // "Mine" is a different count for each viewer; every other filter is the same for all staff.
  const key = JSON.stringify([filter.status, filter.assignee, filter.assignee === "mine" ? viewerId : null, eventIds]);
  return keptFor(keptPassing, table).get(key, async () => {
    const db = await database();
    const rows = await db
      .select({ eventId: table.eventId, n: count() })
      .from(table)
      .leftJoin(reviewQueue, and(eq(reviewQueue.kind, kind), eq(reviewQueue.entryId, sql`${table.id}::text`)))
      .where(and(inArray(table.eventId, [...eventIds]), only))
      .groupBy(table.eventId);
    return Object.fromEntries(rows.map((row) => [String(row.eventId), row.n]));
  });
}
