import { and, eq, inArray, sql } from "drizzle-orm";
import { storedTotalCents } from "~/game/merchant";
import { isUuid } from "~/lib/ids";
import { clubToday } from "~/lib/dates";
import { lastPage } from "~/lib/paging";
import { config } from "~/platform/config.server";
import { database, rawRows, type Database } from "~/platform/db/client.server";
import { events, merchantOrders, pels, research } from "~/platform/db/schema";
import { getApplication } from "~/features/members/applications.server";
import { merchantCurrency } from "~/features/club-facts/merchant/merchant.server";
import { repliesTo } from "~/features/review/staff-replies.server";
import {
  RECORD_KINDS,
  RECORD_PAGE_SIZE,
  type RecordApplication,
  type RecordEntry,
  type RecordFilter,
  type RecordItem,
  type RecordKind,
} from "./record";

/**
 * A member's own record: every post-event letter, merchant order and research paper they sent,
 * newest first, with the event, staff's replies and where each stands; and their application.
 * Every read is of the signed-in member's rows only (`user_id`), so another member's entry is
 * never listed and opening one is answered as an entry that does not exist.
 */

const TABLES = { pel: pels, order: merchantOrders, research } as const;

export type RecordPage = {
  filter: RecordFilter;
  page: number;
  lastPage: number;
  counts: Record<RecordKind, number>;
  items: RecordItem[];
  application: RecordApplication;
};

/** One page of the member's record, of one kind or all, newest first. */
export async function memberRecord(userId: string, filter: RecordFilter, page: number): Promise<RecordPage> {
  const db = await database();
  const kinds: readonly RecordKind[] = filter === "all" ? RECORD_KINDS : [filter];
  const [counts, application, rows] = await Promise.all([
    countsFor(db, userId),
    applicationOf(userId),
    // One ordered page across the kinds asked for: each table's own rows, by when they were sent.
    rawRows<{ kind: RecordKind; id: string }>(
      db,
      sql`select kind, id from (${sql.join(
        kinds.map(
          (kind) =>
            sql`select ${kind}::text as kind, id::text as id, created_at from ${TABLES[kind]} where user_id = ${userId}`,
        ),
        sql` union all `,
      )}) entries order by created_at desc, id desc limit ${RECORD_PAGE_SIZE} offset ${page * RECORD_PAGE_SIZE}`,
    ),
  ]);
  const found = new Map<string, RecordItem>();
  await Promise.all(
    kinds.map(async (kind) => {
      const ids = rows.filter((row) => row.kind === kind).map((row) => row.id);
      for (const item of await itemsOf(db, userId, kind, ids)) found.set(`${kind}:${item.id}`, item);
    }),
  );
  const total = kinds.reduce((sum, kind) => sum + counts[kind], 0);
  return {
    filter,
    page,
    lastPage: lastPage(total, RECORD_PAGE_SIZE),
    counts,
    application,
    items: rows.flatMap((row) => found.get(`${row.kind}:${row.id}`) ?? []),
  };
}

/** One entry of the member's own, whole, with staff's replies; null for another member's, or none. */
export async function memberRecordEntry(userId: string, kind: string, id: string): Promise<RecordEntry | null> {
  if (!(RECORD_KINDS as readonly string[]).includes(kind) || !isUuid(id)) return null;
  const db = await database();
  const recordKind = kind as RecordKind;
  const [item] = await itemsOf(db, userId, recordKind, [id]);
  if (!item) return null;
  if (item.kind === "pel") {
    const [row] = await db
      .select({ answers: pels.answers })
      .from(pels)
      .where(and(eq(pels.id, id), eq(pels.userId, userId)));
    if (!row) return null;
    // The questions as the member was asked them, whatever the club asks now.
    return { ...item, answers: row.answers };
  }
  if (item.kind === "research") {
    const [row] = await db
      .select({ sources: research.sources, notes: research.research, fileSize: research.fileSize })
      .from(research)
      .where(and(eq(research.id, id), eq(research.userId, userId)));
    if (!row) return null;
    return { ...item, ...row };
  }
  const [[row], currency] = await Promise.all([
    db
      .select({ pricedItems: merchantOrders.pricedItems })
      .from(merchantOrders)
      .where(and(eq(merchantOrders.id, id), eq(merchantOrders.userId, userId))),
    merchantCurrency(),
  ]);
  if (!row) return null;
  return { ...item, pricedItems: row.pricedItems, currency };
}

/** How many of each kind the member has sent: one query. */
async function countsFor(db: Database, userId: string): Promise<Record<RecordKind, number>> {
  const [row] = await rawRows<Record<RecordKind, number>>(
    db,
    sql`select
          (select count(*)::int from ${pels} where user_id = ${userId}) as pel,
          (select count(*)::int from ${merchantOrders} where user_id = ${userId}) as "order",
          (select count(*)::int from ${research} where user_id = ${userId}) as research`,
  );
  return { pel: Number(row?.pel ?? 0), order: Number(row?.order ?? 0), research: Number(row?.research ?? 0) };
}

async function applicationOf(userId: string): Promise<RecordApplication> {
  const application = await getApplication(userId);
  if (!application) return null;
  return {
    status: application.status,
    sentAt: application.createdAt.toISOString(),
    decidedAt: application.decidedAt?.toISOString() ?? null,
  };
}

/** These entries of one kind, if they are the member's, with their event and staff's replies. */
async function itemsOf(db: Database, userId: string, kind: RecordKind, ids: string[]): Promise<RecordItem[]> {
  if (ids.length === 0) return [];
  const table = TABLES[kind];
  const common = { id: table.id, sentAt: table.createdAt, eventTitle: events.title, eventDate: events.date };
  const owned = and(eq(table.userId, userId), inArray(table.id, ids));
  const [replies, items] = await Promise.all([repliesTo(kind, ids), readKind()]);
  // Who wrote a reply stays with staff, as under "Answers from staff" on the profile.
  return items.map((item) => ({
    ...item,
    replies: (replies[item.id] ?? []).map(({ id, body, createdAt }) => ({ id, body, createdAt })),
  }));

  async function readKind(): Promise<RecordItem[]> {
    if (kind === "pel") {
      const rows = await db
        .select({ ...common, characterName: pels.characterName })
        .from(pels)
        .innerJoin(events, eq(events.id, pels.eventId))
        .where(owned);
      return rows.map((row) => ({ ...row, kind, sentAt: row.sentAt.toISOString(), replies: [] }));
    }
    if (kind === "order") {
      const rows = await db
        .select({
          ...common,
          items: merchantOrders.items,
          totalPrice: merchantOrders.totalPrice,
          handedOutAt: merchantOrders.handedOutAt,
        })
        .from(merchantOrders)
        .innerJoin(events, eq(events.id, merchantOrders.eventId))
        .where(owned);
      const today = clubToday(new Date(), config().clubTimeZone);
      return rows.map(({ totalPrice, handedOutAt, ...row }) => ({
        ...row,
        kind,
        eventOver: row.eventDate < today,
        sentAt: row.sentAt.toISOString(),
        totalCents: storedTotalCents(totalPrice),
        handedOutAt: handedOutAt?.toISOString() ?? null,
        replies: [],
      }));
    }
    const rows = await db
      .select({ ...common, fileName: research.fileName })
      .from(research)
      .innerJoin(events, eq(events.id, research.eventId))
      .where(owned);
    return rows.map((row) => ({ ...row, kind, sentAt: row.sentAt.toISOString(), replies: [] }));
  }
}
