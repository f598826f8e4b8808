import { orderGoods } from "~/features/club-facts/merchant/price-list";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { database } from "~/platform/db/client.server";
import { merchantOrders, pels, profiles, research } from "~/platform/db/schema";
import { queueFilterOf, queueFilterSql, type QueueFilter } from "./queue-filter.server";
import { type ByEvent, entriesAt, eventsWithEntries, NEW_ONLY, passingByEvent } from "./event-counts.server";
import { queueView } from "./review-queue.server";
import { repliesTo } from "./staff-replies.server";
import type { ReplyKind } from "~/game/review-queue";

import { EVENTS_PAGE_SIZE, lastPage, pageParam, PEL_REVIEW_PAGE_SIZE, REVIEW_PAGE_SIZE } from "~/lib/paging";
import { searchTermOf } from "~/web/forms/kernel";

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

/** A page of an event's orders, each with its goods by the names they were ordered under. */
export async function ordersForEvent(eventId: string, page: number, only?: SQL) {
  const db = await database();
  const rows = await pageOfEvent(merchantOrders, eventId, page, REVIEW_PAGE_SIZE, only);
  const orders = await db
    .select({
      ...author,
      id: merchantOrders.id,
      items: merchantOrders.items,
      pricedItems: merchantOrders.pricedItems,
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
  return orders.map(({ items, pricedItems, ...order }) => ({ ...order, goods: orderGoods(items, pricedItems) }));
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
  // Each listed event also says how many of its entries are new (nobody has taken or answered them):
  // the same grouped count as a filter's, kept alike.
  const [passing, fresh] = await Promise.all([
    only && queue ? passingByEvent(review.kind, review.table, counted, queue.filter, queue.viewerId) : undefined,
    queue ? passingByEvent(review.kind, review.table, counted, NEW_ONLY, queue.viewerId) : undefined,
  ]);
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
    fresh,
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
