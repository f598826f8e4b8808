// The outbox's worker: claims due messages lane by lane, hands each to its deliverer, and
// records the outcome (sent, retried later with a growing wait, or given up).
import crypto from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { config } from "../config.server";
import { database, databaseHandle, type Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";
import {
  backoffMs,
  type Deliverer,
  type Deliverers,
  GiveUp,
  type OutboxRow,
  RetryLater,
  SettingRefused,
} from "./outbox.server";

const MAX_ATTEMPTS = 12;
/**
 * A claimed message is not offered to another worker for this long, unless its worker's
 * process is gone (see `leaseOwner`). The time limit is for a process whose database session
 * outlives it (a machine that lost power leaves its connection open until TCP gives up on
 * it); an attempt itself ends within seconds (the deliverers' timeouts).
 */
const LEASE_MS = 5 * 60 * 1000;
/** Until when a lease taken now runs. */
const leaseEnd = () => sql`now() + ${`${LEASE_MS} milliseconds`}::interval`;
/** How many due messages one lane takes in a round. */
const ROUND_LIMIT = 20;

function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[address]");
}

/** Claims are taken one at a time across app instances (a transaction-scoped advisory lock). */
const CLAIM_LOCK = 0x686f7065; // "hope"
/** The first key of the advisory locks by which running workers own their leases (the second is each worker's own). */
const LEASE_OWNERS = 0x6c656173; // "leas"

/**
 * The lanes messages go out in: each channel (email, text message, chat) on its own, and on
 * each what someone is waiting for on a page apart from the rest. A lane works through its
 * messages one at a time; lanes never wait for one another, so a hung SMTP server or a pile of
 * reminders cannot keep a texted or emailed sign-in code waiting.
 */
type Lane = { kind: OutboxRow["kind"]; urgent: boolean };
const laneName = (lane: Lane) => `${lane.kind}:${lane.urgent ? "urgent" : "bulk"}`;

function lanesOf(deliverers: Deliverers): Lane[] {
  return (Object.keys(deliverers) as OutboxRow["kind"][]).flatMap((kind) => [
    { kind, urgent: true },
    { kind, urgent: false },
  ]);
}

/**
 * Gives back at once the leases of workers whose process is gone. A running worker holds an
 * advisory lock on a key of its own (`leaseOwner`) and leases under that key; PostgreSQL drops
 * the lock when the holder's session ends, which a crash or a kill ends too. So a restarted
 * server takes back on its first round what it held before it stopped, and on PostgreSQL a
 * live instance takes back a dead one's, while every running instance keeps its own leases.
 */
async function releaseLeasesOfGoneWorkers(tx: Transaction): Promise<void> {
  await tx
    .update(outbox)
    .set({ runAt: sql`now()`, leasedBy: null })
    .where(
      and(
        eq(outbox.status, "pending"),
        isNotNull(outbox.leasedBy),
        gt(outbox.runAt, sql`now()`),
        sql`not exists (select 1 from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database()) and classid = ${LEASE_OWNERS}::oid and objid = ${outbox.leasedBy}::oid and objsubid = 2)`,
      ),
    );
}

/**
 * Claims the due messages of `lanes`: per lane at most `limit`, in queue order, skipping any
 * message whose key has an earlier one of its lane still waiting. Each claimed row is leased
 * to `owner` (a worker's key; null for a round run directly, whose lease only times out).
 */
async function claimDueMessages(lanes: Lane[], owner: number | null, limit = ROUND_LIMIT): Promise<OutboxRow[]> {
  if (lanes.length === 0) return [];
  const db = await database();
  return db.transaction(async (tx) => {
    // Serialised, so two instances never claim different messages of one key at once.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    await releaseLeasesOfGoneWorkers(tx);
    const wanted = new Set(lanes.map(laneName));
    const dueLanes = await tx
      .selectDistinct({ kind: outbox.kind, urgent: outbox.urgent })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.runAt, sql`now()`)));
    const claimed: OutboxRow[] = [];
    for (const lane of dueLanes.filter((due) => wanted.has(laneName(due)))) {
      const due = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(
          and(
            eq(outbox.status, "pending"),
            lte(outbox.runAt, sql`now()`),
            eq(outbox.kind, lane.kind),
            eq(outbox.urgent, lane.urgent),
            // An earlier message of the same key and lane that is waiting (for its retry, or
            // leased by a worker) holds back the later ones of that key, and only those. An
            // urgent message is never held back by bulk mail to the same address.
            sql`not exists (select 1 from outbox as earlier where earlier.order_key = ${outbox.orderKey} and earlier.urgent = ${outbox.urgent} and earlier.status = 'pending' and earlier.sequence < ${outbox.sequence} and earlier.run_at > now())`,
          ),
        )
        .orderBy(asc(outbox.sequence))
        .limit(limit)
        .for("update", { skipLocked: true });
      if (due.length === 0) continue;
      // A lease, not an attempt: the attempt is counted when the deliverer is really called.
      const rows = await tx
        .update(outbox)
        .set({ runAt: leaseEnd(), leasedBy: owner })
        .where(
          inArray(
            outbox.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
      claimed.push(...rows);
    }
    return claimed;
  });
}

/** The claimed rows of each lane, in queue order. */
function byLane(rows: OutboxRow[]): Map<string, OutboxRow[]> {
  const lanes = new Map<string, OutboxRow[]>();
  for (const row of [...rows].sort((a, b) => a.sequence - b.sequence)) {
    const name = laneName(row);
    lanes.set(name, [...(lanes.get(name) ?? []), row]);
  }
  return lanes;
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
  stopping: () => boolean,
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
  const blockedKeys = new Set<string>();
  for (const row of rows) {
    if (stopping() || blockedKeys.has(row.orderKey)) {
      // Not tried: released as it was, without an attempt (to wait behind the one that failed).
      await db
        .update(outbox)
        .set({ runAt: sql`now()`, leasedBy: null })
        .where(stillOurs(row));
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
      await deliverer(row);
      await db
        .update(outbox)
        .set({ status: "sent", sentAt: sql`now()`, attempts, lastError: null, leasedBy: null })
        .where(eq(outbox.id, row.id));
    } catch (error) {
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
    [...byLane(claimed).values()].map((rows) => deliverLane(rows, deliverers[rows[0]!.kind]!, null, () => false)),
  );
  return claimed.length;
}

/**
 * The key this process's worker leases messages under, held as an advisory lock on a
 * connection of its own for as long as the worker runs. Lost with its connection (PostgreSQL
 * restarted, a network cut): the next round holds a new key, and meanwhile claims nothing.
 */
function leaseOwner() {
  let held: { key: number; lost: boolean; release: () => Promise<void> } | undefined;
  return {
    async key(): Promise<number> {
      if (held && !held.lost) return held.key;
      held = undefined;
      const handle = await databaseHandle();
      // A key another process holds already is skipped (a chance of one in two billion).
      for (;;) {
        const key = crypto.randomInt(1, 2 ** 31 - 1);
        const mine: { key: number; lost: boolean; release: () => Promise<void> } = {
          key,
          lost: false,
          release: async () => {},
        };
        const release = await handle.holdLock([LEASE_OWNERS, key], (error) => {
          mine.lost = true;
          logger.warn(
            { err: error },
            "the outbox worker lost its database lock; it claims again once it has a new one",
          );
        });
        if (!release) continue;
        mine.release = release;
        held = mine;
        return key;
      }
    },
    async release(): Promise<void> {
      const mine = held;
      held = undefined;
      if (mine && !mine.lost) await mine.release();
    },
  };
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
        const lane = deliverLane(rows, deliverers[rows[0]!.kind]!, key, () => stopped)
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
      clearTimeout(timer);
      await claiming;
      await Promise.all(busy.values());
      await owner
        .release()
        .catch((error: unknown) => logger.warn({ err: error }, "releasing the outbox worker's lock failed"));
    },
  };
}
