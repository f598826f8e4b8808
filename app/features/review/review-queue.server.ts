import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { NEW_QUEUE_STATE, QUEUE_KINDS, type QueueKind, type QueueState, type QueueStatus } from "~/game/review-queue";
import { isStaff, rolesWhere } from "~/game/roles";
import { isMemberId, isUuid } from "~/lib/ids";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database, rawRows, type Database, type Transaction } from "~/platform/db/client.server";
import {
  costumePhotos,
  eventAttendance,
  letters,
  merchantOrders,
  pels,
  profiles,
  research,
  reviewQueue,
} from "~/platform/db/schema";
import { namedAssignee, type QueueFilter } from "./queue-filter.server";

/**
 * The review queues (docs/product.md): on every staff review page an entry is new, in
 * progress or answered, and may have been taken by one of the staff. A row of review_queue
 * holds that; an entry without one is new. What staff do with an entry is in
 * queue-actions.server.ts, the filter in queue-filter.server.ts, staff's replies in
 * staff-replies.server.ts.
 */

const STAFF_ROLES = rolesWhere(isStaff);

/** A costume entry is a member's photos for one event: its id names both. */
export function costumeEntryId(eventId: string, userId: string): string {
  return `${eventId}:${userId}`;
}

/** Where each of these entries stands, with the names of who took them: one query. */
export async function queueStates(kind: QueueKind, entryIds: readonly string[]): Promise<Record<string, QueueState>> {
  const states: Record<string, QueueState> = Object.fromEntries(entryIds.map((id) => [id, NEW_QUEUE_STATE]));
  if (entryIds.length === 0) return states;
  const db = await database();
  const rows = await db
    .select({
      entryId: reviewQueue.entryId,
      status: reviewQueue.status,
      assigneeId: reviewQueue.assigneeId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(reviewQueue)
    .leftJoin(profiles, eq(profiles.id, reviewQueue.assigneeId))
    .where(and(eq(reviewQueue.kind, kind), inArray(reviewQueue.entryId, [...entryIds])));
  for (const row of rows) {
    states[row.entryId] = {
      status: row.status,
      assigneeId: row.assigneeId,
      assigneeName: row.firstName === null ? null : `${row.firstName} ${row.lastName}`,
    };
  }
  return states;
}

/**
 * Who holds entries of each kind, by name: kept until a write to the queue or to a profile (a
 * name or a role may change) is announced.
 */
const keptHolders = new ChangeAwareCache<readonly QueueHolder[]>({
  name: "queue holders",
  tables: ["review_queue", "profiles"],
  maxAgeMs: 60_000,
  maxEntries: QUEUE_KINDS.length,
});

export type QueueHolder = { id: string; name: string };

/**
 * The "Taken by" filter's named choices: the staff who hold an entry of this kind now (not
 * every cast member and manager: a club has a few hundred, and only those with entries narrow
 * the list), and the person the filter names, so the filter still reads true once they hold none.
 */
export async function queueHolders(kind: QueueKind, named: string | null): Promise<QueueHolder[]> {
  const holders = await keptHolders.get(kind, async () => {
    const db = await database();
    const rows = await db
      .selectDistinct({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
      .from(reviewQueue)
      .innerJoin(profiles, eq(profiles.id, reviewQueue.assigneeId))
      .where(and(eq(reviewQueue.kind, kind), inArray(profiles.role, STAFF_ROLES)))
      .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id));
    return rows.map((row) => ({ id: row.id, name: `${row.firstName} ${row.lastName}` }));
  });
  if (named === null || holders.some((holder) => holder.id === named)) return [...holders];
  const db = await database();
  const [person] = await db
    .select({ firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(eq(profiles.id, named));
  return person ? [...holders, { id: named, name: `${person.firstName} ${person.lastName}` }] : [...holders];
}

/** What a review page shows of its queue beside its entries. */
export async function queueView(kind: QueueKind, entryIds: readonly string[], filter: QueueFilter) {
  const [states, staff] = await Promise.all([queueStates(kind, entryIds), queueHolders(kind, namedAssignee(filter))]);
  return { states, staff, filter };
}

/** The member an entry belongs to, or null when there is no such entry. */
export async function ownerOf(db: Database | Transaction, kind: QueueKind, entryId: string): Promise<string | null> {
  if (kind === "costume") {
    const [eventId, userId] = entryId.split(":");
    if (!isUuid(eventId) || !isMemberId(userId)) return null;
    const [attending] = await db
      .select({ userId: eventAttendance.userId })
      .from(eventAttendance)
      .where(and(eq(eventAttendance.eventId, eventId), eq(eventAttendance.userId, userId)))
      .union(
        db
          .select({ userId: costumePhotos.userId })
          .from(costumePhotos)
          .where(and(eq(costumePhotos.eventId, eventId), eq(costumePhotos.userId, userId))),
      );
    return attending?.userId ?? null;
  }
  if (!isUuid(entryId)) return null;
  const table = { pel: pels, order: merchantOrders, research, letter: letters }[kind];
  const [row] = await db.select({ userId: table.userId }).from(table).where(eq(table.id, entryId));
  return row?.userId ?? null;
}

export async function setState(
  tx: Transaction,
  kind: QueueKind,
  entryId: string,
  userId: string,
  state: { status: QueueStatus; assigneeId: string | null },
) {
  await tx
    .insert(reviewQueue)
    .values({ kind, entryId, userId, ...state })
    .onConflictDoUpdate({
      target: [reviewQueue.kind, reviewQueue.entryId],
      set: { ...state, updatedAt: sql`now()` },
    });
}

/**
 * Marks an entry answered in the caller's transaction, keeping whoever has taken it: an NPC's
 * answer to a letter and a costume verdict answer their entries as a staff reply does.
 */
export async function markAnswered(tx: Transaction, kind: QueueKind, entryId: string, userId: string): Promise<void> {
  await tx
    .insert(reviewQueue)
    .values({ kind, entryId, userId, status: "answered" })
    .onConflictDoUpdate({
      target: [reviewQueue.kind, reviewQueue.entryId],
      set: { status: "answered", updatedAt: sql`now()` },
    });
}

/**
 * Puts an answered entry back in the queue when the member sends something new for it (more
 * costume photos after a verdict): new again, or in progress when someone still has it taken.
 */
export async function reopenAnswered(tx: Transaction, kind: QueueKind, entryId: string): Promise<void> {
  await tx
    .update(reviewQueue)
    .set({
      status: sql`case when ${reviewQueue.assigneeId} is null then 'new' else 'in_progress' end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(reviewQueue.kind, kind), eq(reviewQueue.entryId, entryId), eq(reviewQueue.status, "answered")));
}

export type NewCounts = Record<QueueKind, number>;

/**
 * How many entries of each kind are not answered, for the Tools page: one grouped query, kept
 * until a write to any table it reads is announced. Letters count while they wait for staff
 * (held for release, or to an NPC); costume entries are a member's photos for an event.
 */
const keptNewCounts = new ChangeAwareCache<NewCounts>({
  name: "review queue counts",
  tables: ["pels", "merchant_orders", "research", "letters", "costume_photos", "review_queue"],
  maxAgeMs: 60_000,
  maxEntries: 1,
});

export function newEntryCounts(): Promise<NewCounts> {
  return keptNewCounts.get("all", async () => {
    const db = await database();
    const rows = await rawRows<{ kind: QueueKind; n: number }>(
      db,
      sql`select e.kind, count(*)::int as n from (
            select 'pel' as kind, id::text as entry_id from ${pels}
            union all select 'order', id::text from ${merchantOrders}
            union all select 'research', id::text from ${research}
            union all select 'letter', id::text from ${letters} where status in ('held', 'to_staff')
            union all select distinct 'costume', event_id::text || ':' || user_id from ${costumePhotos}
          ) e
          where not exists (select 1 from ${reviewQueue} q where q.kind = e.kind and q.entry_id = e.entry_id and q.status = 'answered')
          group by e.kind`,
    );
    const counts = Object.fromEntries(QUEUE_KINDS.map((kind) => [kind, 0])) as NewCounts;
    for (const row of rows) counts[row.kind] = Number(row.n);
    return counts;
  });
}
