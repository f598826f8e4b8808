// A thread of letters as one member sees it, and marking the letters delivered to them in it read.
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { type LetterStatus, UNSIGNED } from "~/game/letters";
import { isUuid } from "~/lib/ids";
import { database, type Database } from "~/platform/db/client.server";
import { letters, profiles } from "~/platform/db/schema";
import { deliveredTo, visibleTo, writerLeft } from "./letter-access.server";

const inThread = (root: string) => or(eq(letters.id, root), eq(letters.threadId, root))!;

export type ThreadLetter = {
  id: string;
  mine: boolean;
  from: string;
  to: string;
  body: string;
  at: Date;
  status: LetterStatus | null;
  unread: boolean;
};

/** The first letter of the thread of `letterId`, if that letter is the member's to see. */
async function threadOf(db: Database, userId: string, letterId: string): Promise<string | null> {
  if (!isUuid(letterId)) return null;
  const [opened] = await db
    .select({ id: letters.id, threadId: letters.threadId })
    .from(letters)
    .where(and(eq(letters.id, letterId), visibleTo(userId)));
  return opened ? (opened.threadId ?? opened.id) : null;
}

/**
 * Opening a thread reads the letters delivered to the member in it. Done before the page's
 * data is read (the thread page's middleware), so the navigation's count, read alongside,
 * already leaves them out. Returns the letters it marked, which the page shows as new.
 */
export async function markThreadRead(userId: string, letterId: string): Promise<string[]> {
  const db = await database();
  const root = await threadOf(db, userId, letterId);
  if (!root) return [];
  const marked = await db
    .update(letters)
    .set({ readAt: sql`now()` })
    .where(and(inThread(root), deliveredTo(userId), isNull(letters.readAt)))
    .returning({ id: letters.id });
  return marked.map((row) => row.id);
}

/**
 * The thread of letter `letterId` as the member sees it (oldest first), or null when that
 * letter is not theirs to see: someone else's, not yet released, or no letter at all.
 * `justRead`: the letters opening it has just marked read (shown as new). `replyTo` is the
 * latest letter they received in it, which a reply answers.
 */
export async function letterThread(
  userId: string,
  letterId: string,
  justRead: readonly string[] = [],
): Promise<{ letters: ThreadLetter[]; replyTo: { id: string; from: string; writerGone: boolean } | null } | null> {
  const db = await database();
  const root = await threadOf(db, userId, letterId);
  if (!root) return null;
  const rows = await db
    .select({
      id: letters.id,
      userId: letters.userId,
      fromNpc: letters.fromNpc,
      senderName: letters.senderName,
      recipient: letters.recipient,
      body: letters.body,
      createdAt: letters.createdAt,
      deliveredAt: letters.deliveredAt,
      readAt: letters.readAt,
      status: letters.status,
      writerEmail: profiles.email,
    })
    .from(letters)
    .leftJoin(profiles, eq(profiles.id, letters.userId))
    .where(and(inThread(root), visibleTo(userId)))
    .orderBy(asc(letters.createdAt), asc(letters.id));
  const shown: ThreadLetter[] = rows.map((row) => {
    const mine = row.userId === userId && !row.fromNpc;
    return {
      id: row.id,
      mine,
      from: row.senderName ?? UNSIGNED,
      to: row.recipient,
      body: row.body,
      at: mine ? row.createdAt : (row.deliveredAt ?? row.createdAt),
      // The writer sees where their letter is; the recipient only that it came.
      status: mine ? row.status : null,
      unread: !mine && (row.readAt === null || justRead.includes(row.id)),
    };
  });
  const last = rows.findLast((row) => !(row.userId === userId && !row.fromNpc));
  // A reply to a player who has since deleted their account would reach nobody.
  const writerGone = last !== undefined && !last.fromNpc && writerLeft(last.writerEmail);
  return { letters: shown, replyTo: last ? { id: last.id, from: last.senderName ?? UNSIGNED, writerGone } : null };
}
