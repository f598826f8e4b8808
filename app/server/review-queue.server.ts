import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { data } from "react-router";
import { checkForm, type FormValues } from "~/forms/kernel";
import { QUEUE_INTENTS, QUEUE_MESSAGES, QueueForms, type QueueInput, type QueueResult } from "~/forms/review-queue";
import { QUEUE_KINDS, QUEUE_STATUSES, REPLY_KINDS, type QueueKind, type QueueStatus, type ReplyKind } from "~/game/review-queue";
import { isStaff, rolesWhere } from "~/game/roles";
import { isMemberId, isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { failSafely, type ActionAnswer } from "./actions.server";
import { audit } from "./audit.server";
import { ChangeAwareCache, wroteTo } from "./db/changes.server";
import { database, rawRows, type Database, type Transaction } from "./db/client.server";
import { costumePhotos, eventAttendance, events, letters, merchantOrders, pels, profiles, research, reviewQueue, staffReplies } from "./db/schema";

/**
 * The review queues (issue 16, part 3): on every staff review page an entry is new, in
 * progress or answered, and may have been taken by one of the staff. A row of review_queue
 * holds that; an entry without one is new. Staff replies to PELs, orders and research papers
 * are kept in staff_replies and read by the member on their profile.
 */

const STAFF_ROLES = rolesWhere(isStaff);

/** A costume entry is a member's photos for one event: its id names both. */
export function costumeEntryId(eventId: string, userId: string): string {
  return `${eventId}:${userId}`;
}

/** What a review page's address asks of its queue: `?status=` and `?assignee=` (mine, nobody or a person's id). */
export type QueueFilter = { status: QueueStatus | "any"; assignee: string };

export function queueFilterOf(address: string | URL): QueueFilter {
  const url = new URL(address);
  const status = url.searchParams.get("status");
  const assignee = url.searchParams.get("assignee") ?? "";
  return {
    status: (QUEUE_STATUSES as readonly string[]).includes(status ?? "") ? (status as QueueStatus) : "any",
    assignee: assignee === "mine" || assignee === "nobody" || isMemberId(assignee) ? assignee : "any",
  };
}

export function isFiltered(filter: QueueFilter): boolean {
  return filter.status !== "any" || filter.assignee !== "any";
}

/** The staff member an assignee filter names by id, or null for "any", "nobody" and "mine". */
function namedAssignee(filter: QueueFilter): string | null {
  return filter.assignee === "any" || filter.assignee === "nobody" || filter.assignee === "mine" ? null : filter.assignee;
}

/** The person an assignee filter names, or null for "any" / "nobody". */
function assigneeOf(filter: QueueFilter, viewerId: string): string | null {
  return filter.assignee === "mine" ? viewerId : namedAssignee(filter);
}

/**
 * A condition on a review page's entries (whose id is `entryId`) for the filter, or undefined
 * with none: one primary-key probe of review_queue per entry considered.
 */
export function queueFilterSql(kind: QueueKind, entryId: SQL, filter: QueueFilter, viewerId: string): SQL | undefined {
  const row = sql`from ${reviewQueue} where ${reviewQueue.kind} = ${kind} and ${reviewQueue.entryId} = ${entryId}`;
  const conditions: SQL[] = [];
  if (filter.status !== "any") conditions.push(sql`coalesce((select ${reviewQueue.status} ${row}), 'new') = ${filter.status}`);
  const person = assigneeOf(filter, viewerId);
  if (filter.assignee === "nobody") conditions.push(sql`(select ${reviewQueue.assigneeId} ${row}) is null`);
  else if (person) conditions.push(sql`(select ${reviewQueue.assigneeId} ${row}) = ${person}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * The same filter as a condition on a review_queue row joined to the entry (null columns when
 * the entry has no row: new, nobody's), for counting many entries at once with one join rather
 * than a probe per entry; undefined with no filter.
 */
export function queueRowFilterSql(filter: QueueFilter, viewerId: string): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.status !== "any") conditions.push(sql`coalesce(${reviewQueue.status}, 'new') = ${filter.status}`);
  const person = assigneeOf(filter, viewerId);
  if (filter.assignee === "nobody") conditions.push(sql`${reviewQueue.assigneeId} is null`);
  else if (person) conditions.push(sql`${reviewQueue.assigneeId} = ${person}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

export type QueueState = {
  status: QueueStatus;
  assigneeId: string | null;
  assigneeName: string | null;
};
const NEW: QueueState = { status: "new", assigneeId: null, assigneeName: null };

/** Whether an entry in `state` passes the filter (for pages that hold all of an event's entries in memory). */
export function passesFilter(state: QueueState, filter: QueueFilter, viewerId: string): boolean {
  if (filter.status !== "any" && state.status !== filter.status) return false;
  if (filter.assignee === "nobody") return state.assigneeId === null;
  const person = assigneeOf(filter, viewerId);
  return person === null || state.assigneeId === person;
}

/** Where each of these entries stands, with the names of who took them: one query. */
export async function queueStates(kind: QueueKind, entryIds: readonly string[]): Promise<Record<string, QueueState>> {
  const states: Record<string, QueueState> = Object.fromEntries(entryIds.map((id) => [id, NEW]));
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

export type StaffReply = {
  id: string;
  body: string;
  createdAt: string;
  authorName: string | null;
};

/** Every reply to these entries, oldest first per entry: one query. */
export async function repliesTo(kind: ReplyKind, entryIds: readonly string[]): Promise<Record<string, StaffReply[]>> {
  const replies: Record<string, StaffReply[]> = Object.fromEntries(entryIds.map((id) => [id, []]));
  if (entryIds.length === 0) return replies;
  const db = await database();
  const rows = await db
    .select({
      id: staffReplies.id,
      entryId: staffReplies.entryId,
      body: staffReplies.body,
      createdAt: staffReplies.createdAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(staffReplies)
    .leftJoin(profiles, eq(profiles.id, staffReplies.authorId))
    .where(and(eq(staffReplies.kind, kind), inArray(staffReplies.entryId, [...entryIds])))
    .orderBy(asc(staffReplies.createdAt), asc(staffReplies.id));
  for (const row of rows) {
    replies[row.entryId]?.push({
      id: row.id,
      body: row.body,
      createdAt: row.createdAt.toISOString(),
      authorName: row.firstName === null ? null : `${row.firstName} ${row.lastName}`,
    });
  }
  return replies;
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

export type QueueOutcome = { ok: true } | { ok: false; status: number; problem: "notFound" | "notYours" | "unknown" };

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
      const [reply] = await tx
        .insert(staffReplies)
        .values({
          kind: kind as ReplyKind,
          entryId: input.entryId,
          userId,
          authorId: staff.id,
          body: input.body,
          submissionKey: input.submissionKey,
        })
        .onConflictDoNothing({ target: staffReplies.submissionKey })
        .returning({ id: staffReplies.id });
      // The same form sent again: its reply is already there, and already audited.
      if (!reply) return { ok: true } as const;
      await markAnswered(tx, kind, input.entryId, userId);
      await audit(tx, {
        actorId: staff.id,
        action: "queue.reply",
        subjectId: userId,
        details: {
          ...details,
          to: "answered",
          replyId: reply.id,
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

export type MemberAnswer = {
  id: string;
  kind: ReplyKind;
  entryId: string;
  body: string;
  createdAt: string;
  eventTitle: string | null;
  eventDate: string | null;
  /** When the member sent the entry answered: what tells two orders for one event apart. */
  entrySentAt: string | null;
};

/** The replies staff wrote to this member's entries, newest first, with the event each entry is about. */
export async function answersForMember(userId: string, limit = 200): Promise<MemberAnswer[]> {
  const db = await database();
  const rows = await db
    .select({
      id: staffReplies.id,
      kind: staffReplies.kind,
      entryId: staffReplies.entryId,
      body: staffReplies.body,
      createdAt: staffReplies.createdAt,
    })
    .from(staffReplies)
    .where(eq(staffReplies.userId, userId))
    .orderBy(desc(staffReplies.createdAt), desc(staffReplies.id))
    .limit(limit);
  const entriesOf = new Map<string, { title: string; date: string; sentAt: Date }>();
  await Promise.all(
    REPLY_KINDS.map(async (kind) => {
      const ids = rows.filter((row) => row.kind === kind && isUuid(row.entryId)).map((row) => row.entryId);
      if (ids.length === 0) return;
      const table = { pel: pels, order: merchantOrders, research }[kind];
      const found = await db
        .select({ id: table.id, title: events.title, date: events.date, sentAt: table.createdAt })
        .from(table)
        .innerJoin(events, eq(events.id, table.eventId))
        .where(and(eq(table.userId, userId), inArray(table.id, ids)));
      for (const entry of found) entriesOf.set(`${kind}:${entry.id}`, entry);
    }),
  );
  return rows.map((row) => {
    const entry = entriesOf.get(`${row.kind}:${row.entryId}`);
    return {
      ...row,
      createdAt: row.createdAt.toISOString(),
      eventTitle: entry?.title ?? null,
      eventDate: entry?.date ?? null,
      entrySentAt: entry?.sentAt.toISOString() ?? null,
    };
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
        message: form.errors.body ?? form.errors.status ?? form.errors.entryId ?? QUEUE_MESSAGES.failed,
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
