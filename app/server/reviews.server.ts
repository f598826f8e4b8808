import { count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { database } from "./db/client.server";
import { logger } from "./logger.server";
import { events, letters, merchantOrders, pels, profiles, research } from "./db/schema";
import { likePattern } from "./roles.server";

import { REVIEW_PAGE_SIZE } from "~/lib/paging";

type ByEvent = PgTable & { id: PgColumn; eventId: PgColumn };

/** Events that have entries of this kind, with how many, latest first: the groups of a review page. */
async function groupsOf(table: ByEvent) {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date, entries: count(table.id) })
    .from(events)
    .innerJoin(table, eq(table.eventId, events.id))
    .groupBy(events.id)
    .orderBy(desc(events.date));
}

export const pelGroups = () => groupsOf(pels as unknown as ByEvent);
export const orderGroups = () => groupsOf(merchantOrders as unknown as ByEvent);
export const researchGroups = () => groupsOf(research as unknown as ByEvent);

const author = { firstName: profiles.firstName, lastName: profiles.lastName };

export async function pelsForEvent(eventId: string, page: number) {
  const db = await database();
  return db
    .select({ ...author, entry: pels })
    .from(pels)
    .innerJoin(profiles, eq(profiles.id, pels.userId))
    .where(eq(pels.eventId, eventId))
    .orderBy(desc(pels.createdAt), desc(pels.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(page * REVIEW_PAGE_SIZE);
}

export async function ordersForEvent(eventId: string, page: number) {
  const db = await database();
  return db
    .select({ ...author, id: merchantOrders.id, items: merchantOrders.items, totalPrice: merchantOrders.totalPrice, createdAt: merchantOrders.createdAt })
    .from(merchantOrders)
    .innerJoin(profiles, eq(profiles.id, merchantOrders.userId))
    .where(eq(merchantOrders.eventId, eventId))
    .orderBy(desc(merchantOrders.createdAt), desc(merchantOrders.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(page * REVIEW_PAGE_SIZE);
}

export async function researchForEvent(eventId: string, page: number) {
  const db = await database();
  return db
    .select({ ...author, id: research.id, sources: research.sources, research: research.research, fileName: research.fileName, createdAt: research.createdAt })
    .from(research)
    .innerJoin(profiles, eq(profiles.id, research.userId))
    .where(eq(research.eventId, eventId))
    .orderBy(desc(research.createdAt), desc(research.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(page * REVIEW_PAGE_SIZE);
}

/** Every letter, newest first, searchable by sender, recipient or text. */
export async function listLetters({ search = "", page = 0 }: { search?: string; page?: number }) {
  const db = await database();
  const term = search.trim();
  const pattern = likePattern(term);
  const where: SQL | undefined = term
    ? or(ilike(profiles.firstName, pattern), ilike(profiles.lastName, pattern), ilike(letters.recipient, pattern), ilike(letters.body, pattern))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...author, id: letters.id, recipient: letters.recipient, body: letters.body, createdAt: letters.createdAt })
      .from(letters)
      .innerJoin(profiles, eq(profiles.id, letters.userId))
      .where(where)
      .orderBy(desc(letters.createdAt), desc(letters.id))
      .limit(REVIEW_PAGE_SIZE)
      .offset(page * REVIEW_PAGE_SIZE),
    db.select({ n: count() }).from(letters).innerJoin(profiles, eq(profiles.id, letters.userId)).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Reads ?event= and ?page= of a review page, ignoring anything malformed. */
export function reviewParams(request: Request) {
  const url = new URL(request.url);
  const event = url.searchParams.get("event");
  return {
    event: isUuid(event) ? event : null,
    page: Math.max(0, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "0", 10) || 0)),
    search: (url.searchParams.get("q") ?? "").slice(0, 100),
  };
}

type EventGroup = Awaited<ReturnType<typeof pelGroups>>[number];

/**
 * What every by-event review page loads: the groups, and the opened event's entries
 * (a page of them). A failure is logged and shown as the page's own message.
 */
export async function loadReview<T>(request: Request, groups: () => Promise<EventGroup[]>, entries: (eventId: string, page: number) => Promise<T[]>, what: string) {
  const { event, page } = reviewParams(request);
  try {
    const [found, opened] = await Promise.all([groups(), event ? entries(event, page) : Promise.resolve([] as T[])]);
    return { groups: found, open: event, page, entries: opened, failed: false };
  } catch (error) {
    logger.error({ err: error }, `loading ${what} failed`);
    return { groups: [] as EventGroup[], open: event, page, entries: [] as T[], failed: true };
  }
}
