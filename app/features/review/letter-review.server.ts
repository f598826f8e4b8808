// /view-letters: every letter, or one queue's, for staff to release and answer, a letter's whole
// thread with who really wrote each, and the release and answer themselves.
import { and, asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { AnswerInput } from "~/features/letters/letters.form";
import { UNSIGNED } from "~/game/letters";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "~/platform/audit.server";
import { LETTER_COUNT_CAP, REVIEW_PAGE_SIZE } from "~/lib/paging";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { type Database, database } from "~/platform/db/client.server";
import { letters, profiles } from "~/platform/db/schema";
import { letterMatches } from "~/platform/db/search.server";
import { REVIEW_MAX_AGE_MS } from "./event-counts.server";
import { author } from "./event-reviews.server";
import { queueFilterSql, type QueueFilter } from "./queue-filter.server";
import { markAnswered } from "./review-queue.server";

type StaffLetterField = "id" | "recipient" | "body" | "createdAt" | "status" | "senderName" | "fromNpc" | "threadId";

/** What staff see of a letter, read from the letters table or from a page cut from it. */
function staffLetterColumns<Source extends Record<StaffLetterField, unknown>>(
  source: Source,
): Pick<Source, StaffLetterField> {
  const { id, recipient, body, createdAt, status, senderName, fromNpc, threadId } = source;
  return { id, recipient, body, createdAt, status, senderName, fromNpc, threadId };
}

/** Whether a letter is to a player's character (rather than to someone staff answer for). */
const toPlayer = sql<boolean>`${letters.recipientId} is not null`;

/**
 * How many letters there are, kept until a write to them is announced. Every letter has its
 * sender (user_id is required and cascades), so no join: it would cost five times as much.
 */
const keptLetterTotal = new ChangeAwareCache<number>({
  name: "letter total",
  tables: ["letters"],
  maxAgeMs: REVIEW_MAX_AGE_MS,
  maxEntries: 1,
});
function allLetters() {
  return keptLetterTotal.get("all", async () => {
    const db = await database();
    return (await db.select({ n: count() }).from(letters))[0]?.n ?? 0;
  });
}

/** Which letters /view-letters lists: all, those waiting for release, or those to NPCs waiting for an answer. */
export type LetterQueue = "all" | "held" | "npc";
const QUEUE_STATUS = { held: "held", npc: "to_staff" } as const;

/**
 * Every letter (or one queue's), newest first, searchable by sender, recipient or text.
 * A search is counted up to `LETTER_COUNT_CAP` only: counting every letter that holds a
 * common word matched it against all letters' text, and grew with the club's archive; past the
 * cap the page says "More than …" and its pager stops there.
 */
export async function listLetters({
  search = "",
  page = 0,
  queue = "all",
  filter,
}: {
  search?: string;
  page?: number;
  queue?: LetterQueue;
  filter?: { filter: QueueFilter; viewerId: string };
}) {
  const db = await database();
  const term = search.trim();
  const only = filter ? queueFilterSql("letter", sql`${letters.id}::text`, filter.filter, filter.viewerId) : undefined;
  const where: SQL | undefined = and(
    queue === "all" ? undefined : eq(letters.status, QUEUE_STATUS[queue]),
    term ? letterMatches(db, term) : undefined,
    only,
  );
  // The page is cut from the letters alone, then joined to the senders of its letters only.
  const pageOfLetters = db
    .select({ ...staffLetterColumns(letters), userId: letters.userId, toPlayer: toPlayer.as("to_player") })
    .from(letters)
    .where(where)
    .orderBy(desc(letters.createdAt), desc(letters.id))
    .limit(REVIEW_PAGE_SIZE)
    .offset(page * REVIEW_PAGE_SIZE)
    .as("page_of_letters");
  const pageQuery = db
    .select({ ...author, ...staffLetterColumns(pageOfLetters), toPlayer: pageOfLetters.toPlayer })
    .from(pageOfLetters)
    .innerJoin(profiles, eq(profiles.id, pageOfLetters.userId))
    .orderBy(desc(pageOfLetters.createdAt), desc(pageOfLetters.id));
  // Only a search is capped: a queue or a filter alone is counted whole by its index, so staff can page through all of it.
  const counting = !where
    ? allLetters()
    : term
      ? countUpToCap(db, where)
      : db
          .select({ n: count() })
          .from(letters)
          .where(where)
          .then(([row]) => row?.n ?? 0);
  const [rows, counted] = await Promise.all([pageQuery, counting]);
  const moreThanCap = term !== "" && counted > LETTER_COUNT_CAP;
  return { rows, total: moreThanCap ? LETTER_COUNT_CAP : counted, moreThanCap };
}

/** How many letters match, stopping one past the cap: the scan ends there however many letters hold the word. */
async function countUpToCap(db: Database, where: SQL): Promise<number> {
  const upToCap = db
    .select({ one: sql`1`.as("one") })
    .from(letters)
    .where(where)
    .limit(LETTER_COUNT_CAP + 1)
    .as("up_to_cap");
  const [row] = await db.select({ n: count() }).from(upToCap);
  return row?.n ?? 0;
}

/** Every letter of a thread (given by any of its letters), oldest first, with who really wrote each: for staff. */
export async function letterThreadForStaff(letterId: string) {
  if (!isUuid(letterId)) return [];
  const db = await database();
  const [opened] = await db
    .select({ id: letters.id, threadId: letters.threadId })
    .from(letters)
    .where(eq(letters.id, letterId));
  if (!opened) return [];
  const root = opened.threadId ?? opened.id;
  return db
    .select({ ...author, ...staffLetterColumns(letters), toPlayer })
    .from(letters)
    .innerJoin(profiles, eq(profiles.id, letters.userId))
    .where(or(eq(letters.id, root), eq(letters.threadId, root)))
    .orderBy(asc(letters.createdAt), asc(letters.id))
    .limit(500);
}

/** Staff release a held letter into its recipient's letter box (audited). */
export async function releaseLetter(
  staff: SessionUser,
  letterId: string,
): Promise<"released" | "not-found" | "not-held"> {
  if (!isUuid(letterId)) return "not-found";
  const db = await database();
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(letters)
      .set({ status: "delivered", deliveredAt: sql`now()` })
      .where(and(eq(letters.id, letterId), eq(letters.status, "held")))
      .returning({ id: letters.id, userId: letters.userId, recipientId: letters.recipientId });
    if (!released) {
      const [exists] = await tx.select({ id: letters.id }).from(letters).where(eq(letters.id, letterId));
      return exists ? "not-held" : "not-found";
    }
    await audit(tx, {
      actorId: staff.id,
      action: "letter.release",
      subjectId: released.userId,
      details: { letterId: released.id, recipientId: released.recipientId },
    });
    return "released";
  });
}

/**
 * Staff answer a letter to an NPC as that NPC: the answer goes straight to the writer's letter
 * box, signed with the NPC's name, and the letter counts as answered (audited).
 */
export async function answerLetter(
  staff: SessionUser,
  input: AnswerInput,
): Promise<"answered" | "not-found" | "not-waiting"> {
  if (!isUuid(input.letterId)) return "not-found";
  const db = await database();
  return db.transaction(async (tx) => {
    const [letter] = await tx
      .update(letters)
      .set({ status: "answered" })
      .where(and(eq(letters.id, input.letterId), eq(letters.status, "to_staff")))
      .returning({
        id: letters.id,
        threadId: letters.threadId,
        userId: letters.userId,
        recipient: letters.recipient,
        senderName: letters.senderName,
      });
    if (!letter) {
      const [exists] = await tx.select({ id: letters.id }).from(letters).where(eq(letters.id, input.letterId));
      return exists ? "not-waiting" : "not-found";
    }
    const [answer] = await tx
      .insert(letters)
      .values({
        submissionKey: input.submissionKey,
        userId: staff.id,
        fromNpc: true,
        senderName: letter.recipient,
        recipient: letter.senderName ?? UNSIGNED,
        recipientId: letter.userId,
        body: input.body,
        threadId: letter.threadId ?? letter.id,
        status: "delivered",
        deliveredAt: sql`now()`,
      })
      .onConflictDoNothing({ target: letters.submissionKey })
      .returning({ id: letters.id });
    await audit(tx, {
      actorId: staff.id,
      action: "letter.answer",
      subjectId: letter.userId,
      details: { letterId: letter.id, answerId: answer?.id ?? null, as: letter.recipient },
    });
    await markAnswered(tx, "letter", letter.id, letter.userId);
    return "answered";
  });
}

/** How many letters wait for staff, kept until a write to the letters is announced (the page's tabs show them). */
const keptQueues = new ChangeAwareCache<{ held: number; toStaff: number }>({
  name: "letter queues",
  tables: ["letters"],
  maxAgeMs: 60_000,
  maxEntries: 1,
});
export function letterQueues(): Promise<{ held: number; toStaff: number }> {
  return keptQueues.get("all", async () => {
    const db = await database();
    const rows = await db
      .select({ status: letters.status, n: count() })
      .from(letters)
      .where(sql`${letters.status} in ('held', 'to_staff')`)
      .groupBy(letters.status);
    return {
      held: rows.find((r) => r.status === "held")?.n ?? 0,
      toStaff: rows.find((r) => r.status === "to_staff")?.n ?? 0,
    };
  });
}
