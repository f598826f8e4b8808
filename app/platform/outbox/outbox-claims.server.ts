// Which worker sends which message: the outbox's lanes, claiming the due messages of a lane
// under a lease, and the key each running worker's leases are held under.
import crypto from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { database, databaseHandle, type Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";
import type { Deliverers, OutboxRow } from "./outbox.server";

/**
 * A claimed message is not offered to another worker for this long, unless its worker's
 * process is gone (see `leaseOwner`). The time limit is for a process whose database session
 * outlives it (a machine that lost power leaves its connection open until TCP gives up on
 * it); an attempt itself ends within seconds (the deliverers' timeouts).
 */
const LEASE_MS = 5 * 60 * 1000;
/** Until when a lease taken now runs. */
export const leaseEnd = () => sql`now() + ${`${LEASE_MS} milliseconds`}::interval`;
/** How many due messages one lane takes in a round. */
const ROUND_LIMIT = 20;

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
export type Lane = { kind: OutboxRow["kind"]; urgent: boolean };
export const laneName = (lane: Lane) => `${lane.kind}:${lane.urgent ? "urgent" : "bulk"}`;

export function lanesOf(deliverers: Deliverers): Lane[] {
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
export async function claimDueMessages(lanes: Lane[], owner: number | null, limit = ROUND_LIMIT): Promise<OutboxRow[]> {
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
export function byLane(rows: OutboxRow[]): Map<string, OutboxRow[]> {
  const lanes = new Map<string, OutboxRow[]>();
  for (const row of [...rows].sort((a, b) => a.sequence - b.sequence)) {
    const name = laneName(row);
    lanes.set(name, [...(lanes.get(name) ?? []), row]);
  }
  return lanes;
}

/**
 * The key this process's worker leases messages under, held as an advisory lock on a
 * connection of its own for as long as the worker runs. Lost with its connection (PostgreSQL
 * restarted, a network cut): the next round holds a new key, and meanwhile claims nothing.
 */
export function leaseOwner() {
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
