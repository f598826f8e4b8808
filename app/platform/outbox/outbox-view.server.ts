import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { audit } from "../audit.server";
import { database } from "../db/client.server";
import { clubMessageRecipients, clubMessages, outbox, profiles } from "../db/schema";

export const OUTBOX_PAGE_SIZE = 50;

/** What managers see of a message: never its body, which can hold a reset link. */
export type OutboxEntry = {
  id: string;
  kind: (typeof outbox.$inferSelect)["kind"];
  status: "pending" | "failed";
  recipient: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  nextTry: Date | null;
  /** Taken by a worker for its round: sent in its turn (Try now would only free it for another worker). */
  inHand: boolean;
  createdAt: Date;
};

/** A column of a managers' message copy's member (`p`) or message (`m`), for its outbox row. */
const copyOf = (column: SQL) =>
  sql`select ${column} from ${clubMessageRecipients} r join ${profiles} p on p.id = r.user_id join ${clubMessages} m on m.id = r.message_id where r.id = (${outbox.payload}->>'recipientId')::uuid`;

/**
 * The messages not yet sent: failed ones first (they need a decision), then the waiting
 * ones in the order they will go. Only the recipient and subject are read from an email's
 * payload (a copy of a managers' message: its member's address and its subject); a chat notice shows its opening words (notices carry no secrets); a text message
 * its label and the last two digits of its number, never its text (a sign-in code).
 */
export async function listUnsentMessages(page = 0): Promise<{ rows: OutboxEntry[]; total: number }> {
  const db = await database();
  const unsent = inArray(outbox.status, ["pending", "failed"]);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: outbox.id,
        kind: outbox.kind,
        status: outbox.status,
        recipient: sql<string>`case when ${outbox.kind} = 'email' then ${outbox.payload}->>'to' when ${outbox.kind} = 'sms' then '•••• ' || right(${outbox.payload}->>'to', 2) when ${outbox.kind} = 'club-message' then coalesce((${copyOf(sql`p.email`)}), 'A member no longer here') else 'Discord channel' end`,
        subject: sql<string>`case when ${outbox.kind} = 'email' then ${outbox.payload}->>'subject' when ${outbox.kind} = 'sms' then ${outbox.payload}->>'label' when ${outbox.kind} = 'club-message' then (${copyOf(sql`m.subject`)}) else left(${outbox.payload}->>'content', 80) end`,
        attempts: outbox.attempts,
        lastError: outbox.lastError,
        runAt: outbox.runAt,
        leasedBy: outbox.leasedBy,
        createdAt: outbox.createdAt,
      })
      .from(outbox)
      .where(unsent)
      .orderBy(desc(sql`${outbox.status} = 'failed'`), outbox.sequence)
      .limit(OUTBOX_PAGE_SIZE)
      .offset(page * OUTBOX_PAGE_SIZE),
    db.select({ n: count() }).from(outbox).where(unsent),
  ]);
  return {
    rows: rows.map(({ runAt, leasedBy, ...row }) => ({
      ...row,
      status: row.status as OutboxEntry["status"],
      nextTry: row.status === "pending" ? runAt : null,
      // A lease's run time is when it lapses, not when the message goes.
      inHand: row.status === "pending" && leasedBy !== null && runAt > new Date(),
    })),
    total: total?.n ?? 0,
  };
}

/**
 * Sends a failed or waiting message again on the worker's next round, with a fresh allowance
 * of tries (the attempts so far are kept in the audit log). False when the message is gone or sent.
 */
export async function retryMessage(manager: { id: string }, id: string): Promise<boolean> {
  const db = await database();
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ kind: outbox.kind, status: outbox.status, attempts: outbox.attempts })
      .from(outbox)
      .where(
        and(
          eq(outbox.id, id),
          inArray(outbox.status, ["pending", "failed"]),
          // Not one a worker holds: freed, another worker (another instance) could send it a second time.
          sql`not (${outbox.status} = 'pending' and ${outbox.leasedBy} is not null and ${outbox.runAt} > now())`,
        ),
      )
      .for("update");
    if (!before) return false;
    // Free of any worker's lease: a worker that claimed it before no longer sends it, the next round does.
    await tx
      .update(outbox)
      .set({ status: "pending", attempts: 0, runAt: sql`now()`, leasedBy: null })
      .where(eq(outbox.id, id));
    await audit(tx, {
      actorId: manager.id,
      action: "outbox.retry",
      details: { message: id, kind: before.kind, status: before.status, attempts: before.attempts },
    });
    return true;
  });
}

/** Why a copy of a managers' message given up on the Outbox page was not sent. */
export const DISCARDED_COPY_REASON = "Discarded on the Outbox page: it will not be sent.";

/** Gives up on a failed or waiting message; the row stays, marked discarded. */
export async function discardMessage(manager: { id: string }, id: string): Promise<boolean> {
  const db = await database();
  return db.transaction(async (tx) => {
    const [before] = await tx
      .update(outbox)
      .set({ status: "discarded" })
      .where(and(eq(outbox.id, id), inArray(outbox.status, ["pending", "failed"])))
      .returning({ kind: outbox.kind, attempts: outbox.attempts, payload: outbox.payload });
    if (!before) return false;
    // A managers' message's copy given up here is not sent: the member's Notices and the message's
    // record say so, not "being emailed".
    if (before.kind === "club-message") {
      await tx
        .update(clubMessageRecipients)
        .set({ status: "failed", reason: DISCARDED_COPY_REASON })
        .where(
          and(
            eq(clubMessageRecipients.id, String(before.payload.recipientId)),
            inArray(clubMessageRecipients.status, ["queued", "failed"]),
          ),
        );
    }
    await audit(tx, {
      actorId: manager.id,
      action: "outbox.discard",
      details: { message: id, kind: before.kind, attempts: before.attempts },
    });
    return true;
  });
}
