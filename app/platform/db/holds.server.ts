/**
 * Work that holds the database in one long transaction on purpose: an import (all of the export
 * or none of it) and a backup reading its tables (one consistent snapshot). The embedded database
 * has one connection, so while such work runs every other query waits for it, pages and /healthz
 * alike; a health check that waited would answer 503 and could have a supervisor restart the
 * site in the middle of an import. /healthz asks here first (http/pipeline/health.ts): the site is
 * busy, not broken. See docs/decisions/0021-archives-and-long-work.md.
 *
 * The embedded database answers by promise without ever leaving the event loop, so work that
 * only queries it never lets the server read a request at all: such work calls `letOtherWorkIn`
 * between its rows.
 */
export type DatabaseHold = { work: string; since: Date };

const holds = new Map<symbol, DatabaseHold>();

/** Runs `run`, which holds the database for long, known as `work` ("an import") while it does. */
export async function holdingDatabase<T>(work: string, run: () => Promise<T>): Promise<T> {
  const token = Symbol(work);
  holds.set(token, { work, since: new Date() });
  try {
    return await run();
  } finally {
    holds.delete(token);
  }
}

/** How long work holding the database runs before the server gets a turn to answer what needs no database. */
const TURN_MS = 50;
let lastTurn = performance.now();

/**
 * Gives the event loop a turn when TURN_MS have passed since the last: requests are read, the
 * health check answers, timers fire (queries wait for the work to end, as they would anyway).
 */
export async function letOtherWorkIn(): Promise<void> {
  if (performance.now() - lastTurn < TURN_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastTurn = performance.now();
}

/** The longest-running work holding the database now, if any. */
export function databaseHold(): DatabaseHold | undefined {
  return holds.values().next().value;
}
