import { setImmediate as nextTurn } from "node:timers/promises";
import pLimit from "p-limit";

/**
 * Pages drawn in turns: a few at a time, in the order they were asked for, each starting in a
 * turn of the event loop of its own.
 *
 * With the embedded database a query runs inside this thread and its answer comes back as a
 * promise, as does each step of React's rendering, so the requests that arrived together ran to
 * their ends in one unbroken stretch of microtasks (stretches of up to 700 ms were measured under
 * 10 connections), and every page already drawn waited behind that stretch to be compressed and
 * sent: the slowest answers took four times the typical one. Drawn in turns, with everything
 * that finished in between sent first, the slowest are close to the typical one.
 *
 * A request waiting on something outside this thread (an upload still arriving, password
 * hashing, a file in object storage, Discord) stops holding its turn after `leaseMs`; it still
 * finishes, beside the next ones.
 */
/**
 * Pages drawn at once. The embedded database answers one query at a time inside this thread, so
 * a second page in progress only lengthens the stretch; PostgreSQL answers over a socket, and a
 * few pages in progress keep the processor busy while one waits (measured under 10 connections:
 * docs/decisions/0014-pages-in-turns.md).
 */
export const PAGE_SLOTS = { embedded: 1, postgres: 4 } as const;

/** Longer than any page takes to draw here (one visitor's p99 is under 40 ms), far shorter than a slow upload or another service's wait. */
export const PAGE_LEASE_MS = 100;

export function createPageTurns({ slots, leaseMs }: { slots: number; leaseMs: number }) {
  const limit = pLimit(slots);
  return function inTurn<T>(draw: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      void limit(async () => {
        await nextTurn();
        // A throw as it starts rejects the page's promise like a failure later on.
        const drawn = new Promise<T>((started) => started(draw()));
        drawn.then(resolve, reject);
        let lease: NodeJS.Timeout | undefined;
        const leaseOver = new Promise<void>((over) => (lease = setTimeout(over, leaseMs)));
        await Promise.race([
          drawn.then(
            () => undefined,
            () => undefined,
          ),
          leaseOver,
        ]);
        clearTimeout(lease);
      });
    });
  };
}
