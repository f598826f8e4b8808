import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { data } from "react-router";
import { checkForm, type FormValues } from "~/web/forms/kernel";
import { QUEUE_INTENTS, QUEUE_MESSAGES, QueueForms, type QueueInput, type QueueResult } from "./review-queue.form";
import { NEW_QUEUE_STATE, QUEUE_KINDS, REPLY_KINDS, type QueueKind, type QueueState, type QueueStatus, type ReplyKind } from "~/game/review-queue";
import { isStaff, rolesWhere } from "~/game/roles";
import { isMemberId, isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { audit } from "~/platform/audit.server";
import { ChangeAwareCache, wroteTo } from "~/platform/db/changes.server";
import { database, rawRows, type Database, type Transaction } from "~/platform/db/client.server";
import { costumePhotos, eventAttendance, letters, merchantOrders, pels, profiles, research, reviewQueue } from "~/platform/db/schema";
import { namedAssignee, type QueueFilter } from "./queue-filter.server";
import { saveReply } from "./staff-replies.server";

/**
 * The review queues (issue 16, part 3): on every staff review page an entry is new, in
 * progress or answered, and may have been taken by one of the staff. A row of review_queue
 * holds that; an entry without one is new. The filter is in queue-filter.server.ts, staff's
 * replies in staff-replies.server.ts.
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
const keptHolders = new ChangeAwareCache<readonly QueueHolder[]>({ name: "queue holders", tables: ["review_queue", "profiles"], maxAgeMs: 60_000, maxEntries: QUEUE_KINDS.length });

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
  const [person] = await db.select({ firstName: profiles.firstName, lastName: profiles.lastName }).from(profiles).where(eq(profiles.id, named));
  return person ? [...holders, { id: named, name: `${person.firstName} ${person.lastName}` }] : [...holders];
}

/** What a review page shows of its queue beside its entries. */
export async function queueView(kind: QueueKind, entryIds: readonly string[], filter: QueueFilter) {
  const [states, staff] = await Promise.all([queueStates(kind, entryIds), queueHolders(kind, namedAssignee(filter))]);
  return { states, staff, filter };
}

/** The member an entry belongs to, or null when there is no such entry. */
async function ownerOf(db: Database | Transaction, kind: QueueKind, entryId: string): Promise<string | null> {
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

async function setState(tx: Transaction, kind: QueueKind, entryId: string, userId: string, state: { status: QueueStatus; assigneeId: string | null }) {
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
    .set({ status: sql`case when ${reviewQueue.assigneeId} is null then 'new' else 'in_progress' end`, updatedAt: sql`now()` })
    .where(and(eq(reviewQueue.kind, kind), eq(reviewQueue.entryId, entryId), eq(reviewQueue.status, "answered")));
}

export type QueueOutcome = { ok: true } | { ok: false; status: number; problem: "notFound" | "notYours" | "expired" | "unknown" };

/**
 * Takes an entry, hands it back, sets its status or replies to it, and audits that, in one
 * transaction. The entry's row is locked so two staff members acting at once leave one answer.
 */
export async function queueAction(staff: SessionUser, kind: QueueKind, input: QueueInput): Promise<QueueOutcome> {
  if (input.intent === "reply" && !(REPLY_KINDS as readonly string[]).includes(kind)) return { ok: false, status: 400, problem: "unknown" };
  const db = await database();
  const outcome = await db.transaction(async (tx): Promise<QueueOutcome> => {
    const userId = await ownerOf(tx, kind, input.entryId);
    if (!userId) return { ok: false, status: 404, problem: "notFound" } as const;
    const [current] = await tx
      .select({
        status: reviewQueue.status,
        assigneeId: reviewQueue.assigneeId,
      })
      .from(reviewQueue)
      .where(and(eq(reviewQueue.kind, kind), eq(reviewQueue.entryId, input.entryId)))
      .for("update");
    const before = current ?? { status: "new" as const, assigneeId: null };
    const details = { kind, entryId: input.entryId, from: before.status };
    if (input.intent === "take") {
      await setState(tx, kind, input.entryId, userId, {
        status: "in_progress",
        assigneeId: staff.id,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.take",
        subjectId: userId,
        details: {
          ...details,
          to: "in_progress",
          previousAssignee: before.assigneeId,
        },
      });
    } else if (input.intent === "hand_back") {
      if (before.assigneeId !== null && before.assigneeId !== staff.id) return { ok: false, status: 409, problem: "notYours" } as const;
      const status = before.status === "in_progress" ? "new" : before.status;
      await setState(tx, kind, input.entryId, userId, {
        status,
        assigneeId: null,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.hand_back",
        subjectId: userId,
        details: { ...details, to: status },
      });
    } else if (input.intent === "set_status") {
      await setState(tx, kind, input.entryId, userId, {
        status: input.status,
        assigneeId: before.assigneeId,
      });
      await audit(tx, {
        actorId: staff.id,
        action: "queue.set_status",
        subjectId: userId,
        details: { ...details, to: input.status },
      });
    } else {
      const saved = await saveReply(tx, { kind: kind as ReplyKind, entryId: input.entryId, userId, authorId: staff.id, body: input.body, submissionKey: input.submissionKey });
      // The same form sent again: its reply is already there, and already audited.
      if (saved === "already") return { ok: true } as const;
      if (saved === "expired") return { ok: false, status: 409, problem: "expired" } as const;
      await markAnswered(tx, kind, input.entryId, userId);
      await audit(tx, {
        actorId: staff.id,
        action: "queue.reply",
        subjectId: userId,
        details: {
          ...details,
          to: "answered",
          replyId: saved.id,
          length: input.body.length,
        },
      });
    }
    return { ok: true } as const;
  });
  // The page this action returns to reads the queue's kept counts straight away.
  if (outcome.ok) wroteTo("review_queue");
  return outcome;
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

/**
 * A review page's answer to one of the queue's forms (already read): the outcome for the
 * entry it was about, with the message staff see there, or the form's errors (400).
 */
export async function answerQueueForm(staff: SessionUser, kind: QueueKind, values: FormValues): Promise<ActionAnswer<QueueResult>> {
  const form = checkForm(QueueForms, values);
  const { entryId, intent } = values;
  if (!form.ok) {
    if (!QUEUE_INTENTS.includes(intent ?? "")) return data({ entryId, message: QUEUE_MESSAGES.unknown }, { status: 400 });
    return data(
      {
        entryId,
        intent,
        message: form.errors.body ?? form.errors.status ?? form.errors.entryId ?? form.errors.submissionKey ?? QUEUE_MESSAGES.failed,
        errors: form.errors,
        values,
      },
      { status: 400 },
    );
  }
  const input = form.data;
  return failSafely<QueueResult>("changing a review queue entry", { entryId, intent, message: QUEUE_MESSAGES.failed, values }, async () => {
    const outcome = await queueAction(staff, kind, input);
    if (!outcome.ok) return data({ entryId, intent, message: QUEUE_MESSAGES[outcome.problem], values }, { status: outcome.status });
    const done = {
      take: QUEUE_MESSAGES.taken,
      hand_back: QUEUE_MESSAGES.handedBack,
      set_status: QUEUE_MESSAGES.statusSet,
      reply: QUEUE_MESSAGES.replied,
    }[input.intent];
    return data({ entryId, intent, ok: done });
  });
}
