import { DISCARDED_COPY_REASON } from "~/platform/outbox/outbox-view.server";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { MessageChoice } from "~/game/messages";
import { isUuid } from "~/lib/ids";
import { database } from "~/platform/db/client.server";
import { clubMessageRecipients, clubMessages, outbox, profiles } from "~/platform/db/schema";

/** Messages a page of the managers' record shows. */
export const RECORD_PAGE_SIZE = 25;

/**
 * Where a member's copy stands as the record tells it. "waiting": queued, or with the mail server
 * now, or to be tried again; "failed": the mail server refused it, or the outbox gave up on it;
 * "discarded": a manager discarded it on the Outbox page, so it will never go.
 */
export type CopyState = "sent" | "waiting" | "failed" | "discarded" | "interrupted" | "left-out";

export type CopyCounts = { sent: number; waiting: number; failed: number; leftOut: number; interrupted: number };

const copy = clubMessageRecipients;

/**
 * A copy's outbox row while it is not sent. Only the unsent rows are read (the condition of the
 * outbox's partial index): sent rows are most of the table and say nothing a copy does not.
 */
const unsentRowOfCopy = and(
  eq(outbox.kind, "club-message"),
  sql`${outbox.status} in ('pending', 'failed')`,
  sql`${outbox.payload}->>'recipientId' = ${copy.id}::text`,
);

/**
 * The copy's state, read with its outbox row. A copy whose outbox row the outbox gave up on (its
 * retries spent) is still "queued" in its own row, and a failed copy a manager retried on the
 * Outbox page is waiting again: the outbox row says which. A queued copy with no unsent row left
 * was discarded there.
 */
const copyState = sql<CopyState>`case
  when ${copy.status} in ('queued', 'sending', 'failed') and ${outbox.status} = 'pending' then 'waiting'
  when ${copy.status} in ('queued', 'sending') and ${outbox.status} = 'failed' then 'failed'
  when ${copy.status} in ('queued', 'sending') then 'discarded'
  else ${copy.status} end`;

const counted = (states: CopyState[]) =>
  sql<number>`count(*) filter (where (${copyState}) in (${sql.join(
    states.map((state) => sql`${state}`),
    sql`, `,
  )}))`.mapWith(Number);

const COUNTS = {
  sent: counted(["sent"]),
  waiting: counted(["waiting"]),
  failed: counted(["failed", "discarded"]),
  leftOut: counted(["left-out"]),
  interrupted: counted(["interrupted"]),
};

const NO_COPIES: CopyCounts = { sent: 0, waiting: 0, failed: 0, leftOut: 0, interrupted: 0 };

/** How each message's copies stand, by message. */
async function countsOf(messageIds: string[]): Promise<Map<string, CopyCounts>> {
  if (messageIds.length === 0) return new Map();
  const db = await database();
  const rows = await db
    .select({ messageId: copy.messageId, ...COUNTS })
    .from(copy)
    .leftJoin(outbox, unsentRowOfCopy)
    .where(inArray(copy.messageId, messageIds))
    .groupBy(copy.messageId);
  return new Map(rows.map(({ messageId, ...counts }) => [messageId, counts]));
}

/** Who sent a message, as the record names them. */
const senderName = sql<string | null>`nullif(trim(${profiles.firstName} || ' ' || ${profiles.lastName}), '')`;

export type RecordEntry = {
  id: string;
  subject: string;
  audienceLabel: string;
  sender: string | null;
  createdAt: Date;
  counts: CopyCounts;
};

/** A page of the messages sent, newest first, each with how its copies stand; and how many there are. */
export async function listMessages(page: number): Promise<{ rows: RecordEntry[]; total: number }> {
  const db = await database();
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: clubMessages.id,
        subject: clubMessages.subject,
        audienceLabel: clubMessages.audienceLabel,
        sender: senderName,
        createdAt: clubMessages.createdAt,
      })
      .from(clubMessages)
      .leftJoin(profiles, eq(profiles.id, clubMessages.sentBy))
      .orderBy(desc(clubMessages.createdAt), desc(clubMessages.id))
      .limit(RECORD_PAGE_SIZE)
      .offset(page * RECORD_PAGE_SIZE),
    db.select({ n: count() }).from(clubMessages),
  ]);
  const counts = await countsOf(rows.map((row) => row.id));
  return {
    rows: rows.map((row) => ({ ...row, counts: counts.get(row.id) ?? NO_COPIES })),
    total: total?.n ?? 0,
  };
}

/** Why a copy discarded on the Outbox page did not go, as the record gives it (the discard fails the copy with it too). */
export const DISCARDED_REASON = DISCARDED_COPY_REASON;

export type RecipientEntry = {
  userId: string;
  name: string;
  state: CopyState;
  /** Why it failed (the mail server's words), was left out or interrupted; why a waiting one waits again. */
  reason: string | null;
  sentAt: Date | null;
};

export type MessageRecord = {
  id: string;
  subject: string;
  body: string;
  audienceLabel: string;
  choice: MessageChoice;
  discord: boolean;
  sender: string | null;
  createdAt: Date;
  counts: CopyCounts;
  recipients: RecipientEntry[];
};

/** One message with every member it was for, by name, and how their copy stands; undefined for no such message. */
export async function messageRecord(id: string): Promise<MessageRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const db = await database();
  const [[message], recipients, counts] = await Promise.all([
    db
      .select({
        id: clubMessages.id,
        subject: clubMessages.subject,
        body: clubMessages.body,
        audienceLabel: clubMessages.audienceLabel,
        choice: clubMessages.choice,
        discord: clubMessages.discord,
        sender: senderName,
        createdAt: clubMessages.createdAt,
      })
      .from(clubMessages)
      .leftJoin(profiles, eq(profiles.id, clubMessages.sentBy))
      .where(eq(clubMessages.id, id)),
    db
      .select({
        userId: copy.userId,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        state: copyState,
        reason: copy.reason,
        outboxError: outbox.lastError,
        sentAt: copy.sentAt,
      })
      .from(copy)
      .innerJoin(profiles, eq(profiles.id, copy.userId))
      .leftJoin(outbox, unsentRowOfCopy)
      .where(eq(copy.messageId, id))
      .orderBy(asc(profiles.lastName), asc(profiles.firstName), asc(profiles.id)),
    countsOf([id]),
  ]);
  if (!message) return undefined;
  return {
    ...message,
    counts: counts.get(id) ?? NO_COPIES,
    recipients: recipients.map(({ firstName, lastName, outboxError, reason, ...recipient }) => ({
      ...recipient,
      name: `${firstName} ${lastName}`.trim(),
      reason:
        recipient.state === "discarded"
          ? DISCARDED_REASON
          : recipient.state === "failed"
            ? (outboxError ?? reason)
            : recipient.state === "sent"
              ? null
              : reason,
    })),
  };
}

/** The message a compose form's one-time key already sent, if any. */
export async function messageSentWith(submissionKey: string): Promise<string | undefined> {
  if (!isUuid(submissionKey)) return undefined;
  const db = await database();
  const [message] = await db
    .select({ id: clubMessages.id })
    .from(clubMessages)
    .where(eq(clubMessages.submissionKey, submissionKey));
  return message?.id;
}
