import { and, count, desc, eq, exists, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { alias, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { events, merchantOrders, pels, profiles, research, reviewQueue } from "~/platform/db/schema";
import { queueFilterOf, queueFilterSql, queueRowFilterSql, type QueueFilter } from "./queue-filter.server";
import { queueView } from "./review-queue.server";
import { repliesTo } from "./staff-replies.server";
import type { ReplyKind } from "~/game/review-queue";

import { EVENTS_PAGE_SIZE, lastPage, pageParam, PEL_REVIEW_PAGE_SIZE, REVIEW_PAGE_SIZE } from "~/lib/paging";
import { searchTermOf } from "~/web/forms/kernel";

type ByEvent = PgTable & { id: PgColumn; eventId: PgColumn };

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
function eventsWithEntries(table: ByEvent) {
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

function entriesAt(table: ByEvent, eventId: string) {
  return keptFor(keptCounts, table).get(eventId, async () => {
    const db = await database();
    const [row] = await db.select({ n: count() }).from(table).where(eq(table.eventId, eventId));
    return row?.n ?? 0;
  });
}

/** Who wrote an entry, beside it. */
export const author = { firstName: profiles.firstName, lastName: profiles.lastName };

/**
 * Which rows make a page of an event's entries, newest first. Unfiltered, they are read in the
 * order of the event's index (event, date, id). Under a queue filter, the page's ids are picked
 * from that index first and only those rows are read: filtering while reading whole rows read
 * every row of an event of 20,000 letters to find none "mine" (146 ms; about 40 with ids first).
 */
async function pageOfEvent(
  table: ByEvent & { createdAt: PgColumn },
  eventId: string,
  page: number,
  size: number,
  only?: SQL,
) {
  if (!only) return { where: eq(table.eventId, eventId), offset: page * size };
  const db = await database();
  const ids = db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.eventId, eventId), only))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(size)
    .offset(page * size);
  return { where: inArray(table.id, ids), offset: 0 };
}

export async function pelsForEvent(eventId: string, page: number, only?: SQL) {
  const db = await database();
  const rows = await pageOfEvent(pels, eventId, page, PEL_REVIEW_PAGE_SIZE, only);
  return db
    .select({ ...author, entry: pels })
    .from(pels)
    .innerJoin(profiles, eq(profiles.id, pels.userId))
    .where(rows.where)
    .orderBy(desc(pels.createdAt), desc(pels.id))
    .limit(PEL_REVIEW_PAGE_SIZE)
    .offset(rows.offset);
}

/** Whoever handed an order out, beside its author. */
const handedOutBy = alias(profiles, "handed_out_by");

export async function ordersForEvent(eventId: string, page: number, only?: SQL) {
  const db = await database();
  const rows = await pageOfEvent(merchantOrders, eventId, page, REVIEW_PAGE_SIZE, only);
  return db
    .select({
      ...author,
      id: merchantOrders.id,
      items: merchantOrders.items,
      totalPrice: merchantOrders.totalPrice,
      createdAt: merchantOrders.createdAt,
      handedOutAt: merchantOrders.handedOutAt,
      handedOutBy: sql<string | null>`${handedOutBy.firstName} || ' ' || ${handedOutBy.lastName}`,
    })
    .from(merchantOrders)
    .innerJoin(profiles, eq(profiles.id, merchantOrders.userId))
    .leftJoin(handedOutBy, eq(handedOutBy.id, merchantOrders.handedOutBy))
    .where(rows.where)
    .orderBy(desc(merchantOrders.createdAt), desc(merchantOrders.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(rows.offset);
}

export async function researchForEvent(eventId: string, page: number, only?: SQL) {
  const db = await database();
  const rows = await pageOfEvent(research, eventId, page, REVIEW_PAGE_SIZE, only);
  return db
    .select({
      ...author,
      id: research.id,
      sources: research.sources,
      research: research.research,
      fileName: research.fileName,
      createdAt: research.createdAt,
    })
    .from(research)
    .innerJoin(profiles, eq(profiles.id, research.userId))
    .where(rows.where)
    .orderBy(desc(research.createdAt), desc(research.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(rows.offset);
}

/** What a review page's address asks for: an opened event, a page of its entries, a page of events, a search. */
export type ReviewQuery = { event: string | null; page: number; groups: number | null; search: string };

/** Reads ?event=, ?page= and ?q= of a review page's address, ignoring a malformed event or page. */
export function reviewQuery(address: string | URL): ReviewQuery {
  const url = new URL(address);
  const event = url.searchParams.get("event");
  return {
    event: isUuid(event) ? event : null,
    page: pageParam(url),
    groups: url.searchParams.has("groups") ? pageParam(url, "groups") : null,
    search: searchTermOf(url),
  };
}

type EventGroup = { id: string; title: string; date: string };

/** A by-event review page: the table its entries live in and how a page of them is read. */
type Review<T> = {
  kind: ReplyKind;
  table: ByEvent;
  entries: (eventId: string, page: number, only?: SQL) => Promise<T[]>;
  pageSize: number;
};

export const pelReview = {
  kind: "pel" as const,
  table: pels as unknown as ByEvent,
  entries: pelsForEvent,
  pageSize: PEL_REVIEW_PAGE_SIZE,
};
export const orderReview = {
  kind: "order" as const,
  table: merchantOrders as unknown as ByEvent,
  entries: ordersForEvent,
  pageSize: REVIEW_PAGE_SIZE,
};
export const researchReview = {
  kind: "research" as const,
  table: research as unknown as ByEvent,
  entries: researchForEvent,
  pageSize: REVIEW_PAGE_SIZE,
};

/**
 * How many entries of each of these events pass a queue filter (events with none are absent):
 * the entries joined to their queue rows in one grouped count (a probe of the queue per entry
 * took 53-80 ms for the ten events of a page holding 20,000 letters; the join 12-22 ms), kept
 * until a write to the entries, the queue or the events.
 */
function passingByEvent(
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

/**
 * What every by-event review page loads: a page of the groups (EVENTS_PAGE_SIZE events;
 * without ?groups=, the page holding the opened event), and the opened event's entries (a
 * page of them) with their count; under a queue filter, how many entries of each listed event
 * pass it. A failure reaches the page's error boundary.
 */
export async function loadReview<T>(
  { event, page, groups = null }: Pick<ReviewQuery, "event" | "page"> & Partial<Pick<ReviewQuery, "groups">>,
  review: Review<T>,
  queue?: { filter: QueueFilter; viewerId: string },
) {
  const only = queue
    ? queueFilterSql(review.kind, sql`${review.table.id}::text`, queue.filter, queue.viewerId)
    : undefined;
  const [all, opened, unfilteredTotal] = await Promise.all([
    eventsWithEntries(review.table),
    event ? review.entries(event, page, only) : Promise.resolve([] as T[]),
    event && !only ? entriesAt(review.table, event) : Promise.resolve(0),
  ]);
  const groupsLastPage = lastPage(all.length, EVENTS_PAGE_SIZE);
  const openedAt = event ? all.findIndex((group) => group.id === event) : -1;
  const groupsPage = Math.min(groupsLastPage, groups ?? (openedAt >= 0 ? Math.floor(openedAt / EVENTS_PAGE_SIZE) : 0));
  const shown = all.slice(groupsPage * EVENTS_PAGE_SIZE, (groupsPage + 1) * EVENTS_PAGE_SIZE);
  // Filtered, each listed event says how many of its entries pass (the opened one too, listed or
  // not), so staff see where the work is without opening each.
  const counted = [...new Set([...shown.map((group) => group.id), ...(event ? [event] : [])])];
  const passing =
    only && queue ? await passingByEvent(review.kind, review.table, counted, queue.filter, queue.viewerId) : undefined;
  const total = passing ? (event ? (passing[event] ?? 0) : 0) : unfilteredTotal;
  return {
    groups: shown,
    groupsPage,
    groupsLastPage,
    open: event,
    page,
    entries: opened,
    total,
    pageSize: review.pageSize,
    passing,
  };
}

/**
 * A by-event review page with its queue: the entries that pass the address's filter
 * (?status=, ?assignee=), where each stands, who can take them, and the replies sent.
 */
export async function loadQueuedReview<T>(
  address: string,
  viewerId: string,
  review: Review<T>,
  idOf: (entry: T) => string,
) {
  const filter = queueFilterOf(address);
  const loaded = await loadReview(reviewQuery(address), review, { filter, viewerId });
  const ids = loaded.entries.map(idOf);
  const [queue, byEntry] = await Promise.all([queueView(review.kind, ids, filter), repliesTo(review.kind, ids)]);
  // The reply form's one-time key is new with every page drawn (see staff_replies.submission_key).
  return { ...loaded, ...queue, replies: { byEntry, key: crypto.randomUUID() }, viewerId };
}
