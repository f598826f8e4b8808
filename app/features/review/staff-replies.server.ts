import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { REPLY_KINDS, type ReplyKind } from "~/game/review-queue";
import { isUuid } from "~/lib/ids";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { events, merchantOrders, pels, profiles, research, staffReplies } from "~/platform/db/schema";

/**
 * Staff's replies to members' PELs, orders and research papers: written on the review pages,
 * read there beside each entry and by the member under "Answers from staff" on their profile.
 */

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

/**
 * A member's answers from staff, kept until a write to the replies, the entries they answer or
 * the events is announced: the profile, a page members open often, shows them on every visit, and
 * they read up to four queries.
 */
const keptAnswers = new ChangeAwareCache<MemberAnswer[]>({
  name: "members' answers from staff",
  tables: ["staff_replies", "pels", "merchant_orders", "research", "events"],
  maxAgeMs: 60_000,
  maxEntries: 1_000,
});

/** The replies staff wrote to this member's entries, newest first, with the event each entry is about. */
export function answersForMember(userId: string): Promise<MemberAnswer[]> {
  return keptAnswers.get(userId, () => readAnswersForMember(userId));
}

async function readAnswersForMember(userId: string, limit = 200): Promise<MemberAnswer[]> {
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
 * Keeps a reply in the caller's transaction. A form's key already used is the same form sent
 * again (a reload after posting it) when the reply there is the same text to the same entry by
 * the same person: "already". Any other use of the key is a form from a page drawn before (kept
 * by Back, perhaps with a new reply written in it), which must be drawn anew: "expired", so
 * nothing written is taken for sent.
 */
export async function saveReply(
  tx: Transaction,
  reply: { kind: ReplyKind; entryId: string; userId: string; authorId: string; body: string; submissionKey: string },
): Promise<{ id: string } | "already" | "expired"> {
  const [saved] = await tx
    .insert(staffReplies)
    .values(reply)
    .onConflictDoNothing({ target: staffReplies.submissionKey })
    .returning({ id: staffReplies.id });
  if (saved) return saved;
  const [earlier] = await tx
    .select({ entryId: staffReplies.entryId, authorId: staffReplies.authorId, body: staffReplies.body })
    .from(staffReplies)
    .where(eq(staffReplies.submissionKey, reply.submissionKey));
  return earlier?.entryId === reply.entryId && earlier.authorId === reply.authorId && earlier.body === reply.body
    ? "already"
    : "expired";
}
