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

/** Queues an email in the caller's transaction: it is sent only if that transaction commits. */
export async function queueEmail(tx: Database | Transaction, message: EmailMessage, { logText = false } = {}) {
  await tx.insert(outbox).values({ kind: "email", payload: message });
  if (!config().mail.smtpUrl) {
    // Without SMTP the message waits in the outbox; outside production its text is logged
    // so a developer can follow the links in it. Production logs never carry tokens.
    logger.info(
      { to: message.to, subject: message.subject, ...(logText && !config().isProduction ? { text: message.text } : {}) },
      "email queued; no SMTP_URL is set, so it stays in the outbox",
    );
  }
}

/** The wait before attempt `attempts + 1`: doubling from the base, capped at an hour. */
export function backoffMs(attempts: number, baseMs = config().outbox.retryBaseMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

/**
 * Claims the messages that are due and hands each to its deliverer. A message
 * whose deliverer throws is retried later with back-off; GiveUp or too many
 * attempts marks it failed, with the error kept for staff to read.
 */
export async function deliverDueMessages(deliverers: Partial<Record<OutboxRow["kind"], Deliverer>>, limit = 20): Promise<number> {
  const db = await database();
  const kinds = Object.keys(deliverers) as OutboxRow["kind"][];
  if (kinds.length === 0) return 0;
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.status, "pending"),
          lte(outbox.runAt, sql`now()`),
          inArray(outbox.kind, kinds),
          // First in, first out per kind: an earlier message still waiting for its retry holds back the later ones.
          sql`not exists (select 1 from outbox as earlier where earlier.kind = ${outbox.kind} and earlier.status = 'pending' and earlier.sequence < ${outbox.sequence} and earlier.run_at > now())`,
        ),
      )
      .orderBy(asc(outbox.sequence))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, runAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where(inArray(outbox.id, due.map((row) => row.id)))
      .returning();
  });

  // Messages of one kind go out in the order they were queued (chunked posts rely on it).
  claimed.sort((a, b) => a.sequence - b.sequence);
  const blockedKinds = new Set<string>();
  for (const row of claimed) {
    if (blockedKinds.has(row.kind)) {
      await db.update(outbox).set({ runAt: sql`now()` }).where(eq(outbox.id, row.id));
      continue;
    }
    try {
      await deliverers[row.kind]!(row);
      await db.update(outbox).set({ status: "sent", sentAt: sql`now()`, lastError: null }).where(eq(outbox.id, row.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = error instanceof GiveUp || row.attempts >= MAX_ATTEMPTS;
      const waitMs = error instanceof RetryLater && error.afterMs !== undefined ? error.afterMs : backoffMs(row.attempts);
      await db
        .update(outbox)
        .set(
          giveUp
            ? { status: "failed", lastError: message }
            : { lastError: message, runAt: sql`now() + ${`${waitMs} milliseconds`}::interval` },
        )
        .where(eq(outbox.id, row.id));
      logger.warn({ id: row.id, kind: row.kind, attempts: row.attempts, giveUp, error: message }, "outbox delivery failed");
      // Later messages of this kind wait, so they cannot overtake the one that failed.
      blockedKinds.add(row.kind);
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
