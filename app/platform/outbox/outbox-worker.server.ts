// The outbox's worker: claims due messages lane by lane (outbox-claims.server.ts), hands each to
// its deliverer, and records the outcome (sent, retried later with a growing wait, or given up).
import { and, eq, isNull, sql } from "drizzle-orm";
import { config } from "../config.server";
import { database } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";
import {
  backoffMs,
  type Deliverer,
  type Deliverers,
  GivenBack,
  GiveUp,
  MAX_ATTEMPTS,
  type OutboxRow,
  RetryLater,
  SettingRefused,
} from "./outbox.server";
import { byLane, claimDueMessages, laneName, lanesOf, leaseEnd, leaseOwner } from "./outbox-claims.server";

/** An error's text for the log, with every email address in it blanked. */
function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[address]");
}

/**
 * Hands a lane's claimed messages to its deliverer one at a time, in queue order per order key
 * (recipient or channel). A message whose deliverer throws is retried later with back-off and
 * holds back only the later messages of its key; GiveUp (a permanent refusal) or too many
 * attempts marks it failed at once, with the error kept for managers to read. `attempts`
 * counts real delivery tries only. Once `stopping` says so, what is not yet tried is given back.
 */
async function deliverLane(
  rows: OutboxRow[],
  deliverer: Deliverer,
  owner: number | null,
  stopping: AbortSignal,
): Promise<void> {
  const db = await database();
  // Still pending and still leased to this worker: since the claim, a manager may have
  // discarded or retried it, or another worker taken it back (this one's lock lost).
  const stillOurs = (row: OutboxRow) =>
    and(
      eq(outbox.id, row.id),
      eq(outbox.status, "pending"),
      owner === null ? isNull(outbox.leasedBy) : eq(outbox.leasedBy, owner),
    );
  // Not tried: released as it was, without an attempt.
  const release = (row: OutboxRow) =>
    db
      .update(outbox)
      .set({ runAt: sql`now()`, leasedBy: null })
      .where(stillOurs(row));
  const blockedKeys = new Set<string>();
  for (const row of rows) {
    if (stopping.aborted || blockedKeys.has(row.orderKey)) {
      // A stop, or to wait behind the one of its key that failed.
      await release(row);
      continue;
    }
    // The lease starts again for this attempt, however long the messages before it took.
    const [ours] = await db
      .update(outbox)
      .set({ runAt: leaseEnd() })
      .where(stillOurs(row))
      .returning({ id: outbox.id });
    if (!ours) continue;
    const attempts = row.attempts + 1;
    try {
      await deliverer(row, { signal: stopping });
      await db
        .update(outbox)
        .set({ status: "sent", sentAt: sql`now()`, attempts, lastError: null, leasedBy: null })
        .where(eq(outbox.id, row.id));
    } catch (error) {
      if (error instanceof GivenBack) {
        await release(row);
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = error instanceof GiveUp || attempts >= MAX_ATTEMPTS;
      const waitMs = error instanceof RetryLater && error.afterMs !== undefined ? error.afterMs : backoffMs(attempts);
      await db
        .update(outbox)
        .set(
          giveUp
            ? { status: "failed", attempts, lastError: message, leasedBy: null }
            : {
                attempts,
                lastError: message,
                runAt: sql`now() + ${`${waitMs} milliseconds`}::interval`,
                leasedBy: null,
              },
        )
        .where(eq(outbox.id, row.id));
      // The kept error is for managers; the log gets it without addresses (SMTP replies quote them).
      if (error instanceof SettingRefused)
        logger.error(
          { id: row.id, kind: row.kind, attempts, setting: error.setting, error: withoutAddresses(message) },
          `outbox delivery failed: ${error.setting} needs fixing; the message waits`,
        );
      else
        logger.warn(
          { id: row.id, kind: row.kind, attempts, giveUp, error: withoutAddresses(message) },
          "outbox delivery failed",
        );
      // Later messages of this key wait, so they cannot overtake the one that failed; a
      // message that failed for good no longer holds anything back.
      if (!giveUp) blockedKeys.add(row.orderKey);
    }
  }
}

/**
 * One round, as the worker runs it but without a key of its own (its leases only time out):
 * claims the due messages of every lane the deliverers serve and delivers them, the lanes side
 * by side. Resolves when every lane is done; returns how many messages were claimed.
 */
export async function deliverDueMessages(deliverers: Deliverers): Promise<number> {
  const claimed = await claimDueMessages(lanesOf(deliverers), null);
  await Promise.all(
    [...byLane(claimed).values()].map((rows) =>
      deliverLane(rows, deliverers[rows[0]!.kind]!, null, new AbortController().signal),
    ),
  );
  return claimed.length;
}

/**
 * Runs a round every `pollMs` for the lanes not busy with the last one, so a slow lane never
 * delays another. `stop()` gives back what is claimed and not yet tried, waits for the
 * attempts in flight (bounded by the deliverers' timeouts) and lets go of the worker's key.
 */
export function startOutboxWorker(deliverers: Deliverers, pollMs = config().outbox.pollMs) {
  const lanes = lanesOf(deliverers);
  const owner = leaseOwner();
  const busy = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming: Promise<unknown> = Promise.resolve();
  const tick = () => {
    claiming = (async () => {
      const idle = lanes.filter((lane) => !busy.has(laneName(lane)));
      if (idle.length === 0) return;
      const key = await owner.key();
      const claimed = await claimDueMessages(idle, key);
      for (const [name, rows] of byLane(claimed)) {
        const lane = deliverLane(rows, deliverers[rows[0]!.kind]!, key, stopping.signal)
          .catch((error: unknown) => logger.error({ err: error, lane: name }, "outbox worker round failed"))
          .finally(() => busy.delete(name));
        busy.set(name, lane);
      }
    })()
      .catch((error: unknown) => logger.error({ err: error }, "outbox worker round failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  timer = setTimeout(tick, pollMs);
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await claiming;
      await Promise.all(busy.values());
      await owner
        .release()
        .catch((error: unknown) => logger.warn({ err: error }, "releasing the outbox worker's lock failed"));
    },
  };
}
