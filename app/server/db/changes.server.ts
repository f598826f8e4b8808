import { logger } from "../logger.server";
import type { DatabaseHandle } from "./client.server";

/** The channel on which the database announces writes, naming the table (migration 0002). */
export const CHANGES_CHANNEL = "hopewell_changes";
/** Announced locally when the announcements may have been missed: every copy is dropped. */
const ANY_TABLE = "*";

const subscribers = new Set<(table: string) => void>();
let liveFeeds = 0;

/**
 * True while this process follows the database's announcements. Copies of database reads
 * are only kept then: without the announcements nothing would tell them to go.
 */
export function changesAreFollowed(): boolean {
  return liveFeeds > 0;
}

function announce(table: string): void {
  for (const subscriber of subscribers) subscriber(table);
}

/**
 * Follows the announcements of `handle`'s database until stopped. A lost connection drops
 * every copy and stops new ones being kept until it is back (retried every `retryMs`).
 */
export function followDatabaseChanges(handle: Promise<DatabaseHandle>, retryMs = 1000): { stop: () => Promise<void> } {
  let stopped = false;
  let live = false;
  let unlisten: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;

  const setLive = (value: boolean) => {
    if (value === live) return;
    live = value;
    liveFeeds += value ? 1 : -1;
    announce(ANY_TABLE);
  };
  const scheduleRetry = () => {
    if (stopped) return;
    retry = setTimeout(() => void connect(), retryMs);
    retry.unref();
  };
  async function connect() {
    try {
      const stop = await (await handle).listen(CHANGES_CHANNEL, announce, (error) => {
        unlisten = undefined;
        setLive(false);
        logger.warn({ err: error }, "lost the database's change announcements; reconnecting");
        scheduleRetry();
      });
      if (stopped) {
        await stop().catch(() => {});
        return;
      }
      unlisten = stop;
      setLive(true);
    } catch (error) {
      if (stopped) return;
      logger.warn({ err: error }, "cannot follow the database's change announcements; retrying");
      scheduleRetry();
    }
  }
  void connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      setLive(false);
      await unlisten?.().catch(() => {});
      unlisten = undefined;
    },
  };
}

/**
 * Copies of database reads, kept in memory until a write to one of `tables` is announced:
 * for what nearly every request reads and seldom changes (who is signed in, the events).
 */
export class ChangeAwareCache<V> {
  readonly #entries = new Map<string, V>();
  #generation = 0;

  constructor(
    private readonly tables: readonly string[],
    private readonly maxEntries = 10_000,
  ) {
    subscribers.add((table) => {
      if (table !== ANY_TABLE && !this.tables.includes(table)) return;
      this.#generation++;
      this.#entries.clear();
    });
  }

  /** The kept copy for `key` while `usable` accepts it, else a fresh read (kept if `usable`). */
  async get(key: string, read: () => Promise<V>, usable: (value: V) => boolean = () => true): Promise<V> {
    if (!changesAreFollowed()) return read();
    const kept = this.#entries.get(key);
    if (kept !== undefined && usable(kept)) return kept;
    const generation = this.#generation;
    const value = await read();
    // A write announced while reading may be missing from what was read: use it once, keep it not.
    if (generation === this.#generation && changesAreFollowed() && value !== undefined && usable(value)) {
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, value);
    }
    return value;
  }
}
