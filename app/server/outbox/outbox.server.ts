import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { config } from "../config.server";
import { database, type Database, type Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";

export type EmailMessage = { to: string; subject: string; text: string; html: string };
export type OutboxRow = typeof outbox.$inferSelect;

/** What a delivery attempt can say beyond "sent". */
export class RetryLater extends Error {
  constructor(message: string, public readonly afterMs?: number) {
    super(message);
  }
}
export class GiveUp extends Error {}

export type Deliverer = (row: OutboxRow) => Promise<void>;

const MAX_ATTEMPTS = 12;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed message is not offered to another worker for this long. */
const LEASE_MS = 5 * 60 * 1000;

/** The key that orders an email: its recipient, so one refused address never holds back mail to others. */
export function emailOrderKey(to: string): string {
  return `email:${to.trim().toLowerCase()}`;
}

/** Queues an email in the caller's transaction: it is sent only if that transaction commits. */
export async function queueEmail(tx: Database | Transaction, message: EmailMessage, { logText = false } = {}) {
  const [row] = await tx.insert(outbox).values({ kind: "email", orderKey: emailOrderKey(message.to), payload: message }).returning({ id: outbox.id });
  if (!config().mail.smtpUrl) {
    // Without SMTP the message waits in the outbox, where managers see it. Logs never carry the
    // recipient; outside production the text is logged so a developer can follow its links.
    logger.info(
      { id: row!.id, subject: message.subject, ...(logText && !config().isProduction ? { text: message.text } : {}) },
      "email queued; no SMTP_URL is set, so it stays in the outbox",
    );
  }
}

/** The wait before attempt `attempts + 1`: doubling from the base, capped at an hour. */
export function backoffMs(attempts: number, baseMs = config().outbox.retryBaseMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[address]");
}

/** Claims are taken one at a time across app instances (a transaction-scoped advisory lock). */
const CLAIM_LOCK = 0x686f7065; // "hope"

/**
 * Claims the messages that are due and hands each to its deliverer, in queue order
 * per order key (recipient or channel). A message whose deliverer throws is retried
 * later with back-off and holds back only the later messages of its key; GiveUp (a
 * permanent refusal) or too many attempts marks it failed at once, with the error
 * kept for managers to read. `attempts` counts real delivery tries only.
 */
export async function deliverDueMessages(deliverers: Partial<Record<OutboxRow["kind"], Deliverer>>, limit = 20): Promise<number> {
  const db = await database();
  const kinds = Object.keys(deliverers) as OutboxRow["kind"][];
  if (kinds.length === 0) return 0;
  const claimed = await db.transaction(async (tx) => {
    // Serialised, so two instances never claim different messages of one key at once.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.status, "pending"),
          lte(outbox.runAt, sql`now()`),
          inArray(outbox.kind, kinds),
          // An earlier message of the same key that is waiting (for its retry, or leased by a
          // worker) holds back the later ones of that key, and only those.
          sql`not exists (select 1 from outbox as earlier where earlier.order_key = ${outbox.orderKey} and earlier.status = 'pending' and earlier.sequence < ${outbox.sequence} and earlier.run_at > now())`,
        ),
      )
      .orderBy(asc(outbox.sequence))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    // A lease, not an attempt: the attempt is counted when the deliverer is really called.
    return tx
      .update(outbox)
      .set({ runAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where(inArray(outbox.id, due.map((row) => row.id)))
      .returning();
  });

  // Messages of one key go out in the order they were queued (chunked posts rely on it).
  claimed.sort((a, b) => a.sequence - b.sequence);
  const blockedKeys = new Set<string>();
  for (const row of claimed) {
    if (blockedKeys.has(row.orderKey)) {
      // Not tried: released as it was, without an attempt, to wait behind the one that failed.
      await db.update(outbox).set({ runAt: sql`now()` }).where(eq(outbox.id, row.id));
      continue;
    }
    const attempts = row.attempts + 1;
    try {
      await deliverers[row.kind]!(row);
      await db.update(outbox).set({ status: "sent", sentAt: sql`now()`, attempts, lastError: null }).where(eq(outbox.id, row.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = error instanceof GiveUp || attempts >= MAX_ATTEMPTS;
      const waitMs = error instanceof RetryLater && error.afterMs !== undefined ? error.afterMs : backoffMs(attempts);
      await db
        .update(outbox)
        .set(
          giveUp
            ? { status: "failed", attempts, lastError: message }
            : { attempts, lastError: message, runAt: sql`now() + ${`${waitMs} milliseconds`}::interval` },
        )
        .where(eq(outbox.id, row.id));
      // The kept error is for managers; the log gets it without addresses (SMTP replies quote them).
      logger.warn({ id: row.id, kind: row.kind, attempts, giveUp, error: withoutAddresses(message) }, "outbox delivery failed");
      // Later messages of this key wait, so they cannot overtake the one that failed; a
      // message that failed for good no longer holds anything back.
      if (!giveUp) blockedKeys.add(row.orderKey);
    }
  }
  return claimed.length;
}

/** Runs deliveries every `pollMs` until stopped; `stop()` waits for the round in progress. */
export function startOutboxWorker(deliverers: Partial<Record<OutboxRow["kind"], Deliverer>>, pollMs = config().outbox.pollMs) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = deliverDueMessages(deliverers)
      .catch((error) => logger.error({ err: error }, "outbox worker round failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  timer = setTimeout(tick, pollMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
