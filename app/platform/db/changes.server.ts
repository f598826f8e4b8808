import { AsyncLocalStorage } from "node:async_hooks";
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
 * Drops this process's copies of reads of `table` at once, for a write it has just made: the
 * database's announcement of that write arrives a moment later, and a read in that moment (the
 * page the write's form returns to) would still get the old copy. Other processes wait for the
 * announcement.
 */
export function wroteTo(table: string): void {
  announce(table);
}

/**
 * Calls `onWrite` whenever a write to one of `tables` is announced, and when every copy is
 * dropped because announcements may have been missed; the answer stops it.
 */
export function onWritesTo(tables: readonly string[], onWrite: () => void): () => void {
  const subscriber = (table: string) => {
    if (table === ANY_TABLE || tables.includes(table)) onWrite();
  };
  subscribers.add(subscriber);
  return () => subscribers.delete(subscriber);
}

/** Drops every kept copy in this process (a test file that is done with its database). */
export function forgetKeptReads(): void {
  announce(ANY_TABLE);
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
      const stop = await (
        await handle
      ).listen(CHANGES_CHANNEL, announce, (error) => {
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

/** How a kept read is bounded: what it reads, how long a copy may be trusted, how many are kept. */
export type ChangeAwareCacheOptions = {
  /** A name for logs and tests ("session answers"). */
  name: string;
  /**
   * Every table the kept read reads. Each must announce its writes (a trigger calling
   * hopewell_announce_change, migrations 0002-0004): tests/integration/cache-tables.test.ts
   * runs every kept read and fails when it reads a table not listed here, or a listed table
   * announces nothing.
   */
  tables: readonly string[];
  /**
   * The longest a copy is used, announcements or not: the staleness accepted for this data
   * should an announcement be missed (a connection that died silently is only noticed at the
   * next heartbeat, LISTEN_HEARTBEAT_MS) or a write bypass the triggers.
   */
  maxAgeMs: number;
  /** At most this many copies; the first kept go first. */
  maxEntries?: number;
};

const registry: ChangeAwareCache<unknown>[] = [];
/** Which kept read, if any, the current query runs for: lets a test see what each one reads. */
const reading = new AsyncLocalStorage<ChangeAwareCache<unknown>>();

/** Every kept read made so far in this process (each module makes its own when loaded). */
export function changeAwareCaches(): readonly ChangeAwareCache<unknown>[] {
  return registry;
}

/** The kept read the caller's query is made for, if any (for tests that log queries). */
export function cacheReadingNow(): ChangeAwareCache<unknown> | undefined {
  return reading.getStore();
}

/**
 * Copies of database reads, kept in memory until a write to one of `tables` is announced,
 * and never longer than `maxAgeMs`: for what nearly every request reads and seldom changes
 * (who is signed in, the events).
 */
export class ChangeAwareCache<V> {
  readonly name: string;
  readonly tables: readonly string[];
  readonly maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { value: V; keptAt: number }>();
  #generation = 0;

  constructor(options: ChangeAwareCacheOptions) {
    if (!(Number.isFinite(options.maxAgeMs) && options.maxAgeMs > 0))
      throw new Error(`${options.name}: maxAgeMs must be a positive number of milliseconds`);
    this.name = options.name;
    this.tables = options.tables;
    this.maxAgeMs = options.maxAgeMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
    registry.push(this as ChangeAwareCache<unknown>);
    subscribers.add(this.#forget);
  }

  readonly #forget = (table: string) => {
    if (table !== ANY_TABLE && !this.tables.includes(table)) return;
    this.#generation++;
    this.#entries.clear();
  };

  /** Drops the copies and leaves the process's list of kept reads (the app's last for its lifetime; a test's go when it ends). */
  stop(): void {
    subscribers.delete(this.#forget);
    registry.splice(registry.indexOf(this as ChangeAwareCache<unknown>), 1);
    this.#entries.clear();
  }

  /** The kept copy for `key` while young enough and `usable` accepts it, else a fresh read (kept if `usable`). */
  async get(key: string, read: () => Promise<V>, usable: (value: V) => boolean = () => true): Promise<V> {
    const readNow = () => reading.run(this as ChangeAwareCache<unknown>, read);
    if (!changesAreFollowed()) return readNow();
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      if (Date.now() - kept.keptAt < this.maxAgeMs && usable(kept.value)) return kept.value;
      this.#entries.delete(key);
    }
    const generation = this.#generation;
    // The age counts from before the read: what it returns may already be that old.
    const readAt = Date.now();
    const value = await readNow();
    // A write announced while reading may be missing from what was read: use it once, keep it not.
    if (generation === this.#generation && changesAreFollowed() && value !== undefined && usable(value)) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { value, keptAt: readAt });
    }
    return value;
  }
}
