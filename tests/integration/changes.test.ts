import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ChangeAwareCache,
  changesAreFollowed,
  followDatabaseChanges,
  wroteTo,
  type ChangeAwareCacheOptions,
} from "~/platform/db/changes.server";
import { databaseHandle } from "~/platform/db/client.server";
import { eventValues } from "~/platform/db/factories";
import { events } from "~/platform/db/schema";
import { testDatabaseKind, withTestDatabase } from "../helpers/db";

const db = withTestDatabase();

/** Waits for `check`: on PostgreSQL an announcement arrives over its own connection, a moment after the commit. */
async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The kept reads this file makes are its own: each leaves the process's list when its test ends. */
const made: ChangeAwareCache<unknown>[] = [];
afterEach(() => {
  for (const cache of made.splice(0)) cache.stop();
});
function keptRead<V>(options: ChangeAwareCacheOptions): ChangeAwareCache<V> {
  const cache = new ChangeAwareCache<V>(options);
  made.push(cache as ChangeAwareCache<unknown>);
  return cache;
}

/** A cache of the number of events that counts its reads. */
function countedEvents() {
  const cache = keptRead<number>({ name: "test: events counted", tables: ["events"], maxAgeMs: 60_000 });
  let reads = 0;
  const read = async () => {
    reads++;
    return (await db().select().from(events)).length;
  };
  return { get: () => cache.get("count", read), reads: () => reads };
}

describe("reads kept in memory", () => {
  it("are kept only while the database's announcements are followed, and read again after a write to their table", async () => {
    const counted = countedEvents();
    await counted.get();
    await counted.get();
    expect(counted.reads()).toBe(2);

    const feed = followDatabaseChanges(databaseHandle());
    try {
      await eventually(() => changesAreFollowed());
      expect(await counted.get()).toBe(0);
      expect(await counted.get()).toBe(0);
      expect(counted.reads()).toBe(3);

      // Another connection's write: the pool's, not the one listening.
      await db().insert(events).values(eventValues());
      await eventually(async () => (await counted.get()) === 1);
      const reads = counted.reads();
      await db().execute(sql`update profiles set updated_at = now()`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await counted.get()).toBe(1);
      expect(counted.reads()).toBe(reads);
    } finally {
      await feed.stop();
    }
    expect(changesAreFollowed()).toBe(false);
    const reads = counted.reads();
    await counted.get();
    await counted.get();
    expect(counted.reads()).toBe(reads + 2);
  });

  it("are dropped at once by the process that wrote to their table, before the database's announcement", async () => {
    const counted = countedEvents();
    const feed = followDatabaseChanges(databaseHandle());
    try {
      await eventually(() => changesAreFollowed());
      await counted.get();
      await counted.get();
      const reads = counted.reads();
      // Said by the writer itself: no announcement is awaited (here there is none to come).
      wroteTo("profiles");
      await counted.get();
      expect(counted.reads()).toBe(reads);
      wroteTo("events");
      await counted.get();
      expect(counted.reads()).toBe(reads + 1);
    } finally {
      await feed.stop();
    }
  });

  it("do not keep a read during which a write was announced", async () => {
    const feed = followDatabaseChanges(databaseHandle());
    try {
      await eventually(() => changesAreFollowed());
      const probe = countedEvents();
      await probe.get();
      const cache = keptRead<number>({ name: "test: events during a write", tables: ["events"], maxAgeMs: 60_000 });
      let reads = 0;
      const readDuringWrite = async () => {
        reads++;
        const counted = (await db().select().from(events)).length;
        if (reads === 1) {
          await db().insert(events).values(eventValues());
          const before = probe.reads();
          await eventually(async () => (await probe.get(), probe.reads() > before));
        }
        return counted;
      };
      const first = await cache.get("count", readDuringWrite);
      const second = await cache.get("count", readDuringWrite);
      expect(second).toBe(first + 1);
      expect(reads).toBe(2);
      await cache.get("count", readDuringWrite);
      expect(reads).toBe(2);
    } finally {
      await feed.stop();
    }
  });

  it("are read again once older than their time limit, though nothing was announced", async () => {
    const feed = followDatabaseChanges(databaseHandle());
    try {
      await eventually(() => changesAreFollowed());
      vi.useFakeTimers({ toFake: ["Date"] });
      const cache = keptRead<number>({ name: "test: events for a second", tables: ["events"], maxAgeMs: 1_000 });
      let reads = 0;
      const read = async () => (reads++, (await db().select().from(events)).length);
      const before = await cache.get("count", read);
      // Written where no announcement is made (as when one is lost): only the time limit tells.
      await db().execute(sql`alter table events disable trigger events_announce_change`);
      try {
        await db().insert(events).values(eventValues());
      } finally {
        await db().execute(sql`alter table events enable trigger events_announce_change`);
      }
      vi.advanceTimersByTime(999);
      expect(await cache.get("count", read)).toBe(before);
      expect(reads).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await cache.get("count", read)).toBe(before + 1);
      expect(reads).toBe(2);
      expect(await cache.get("count", read)).toBe(before + 1);
      expect(reads).toBe(2);
    } finally {
      vi.useRealTimers();
      await feed.stop();
    }
  });

  it("must be given a time limit", () => {
    expect(() =>
      keptRead<number>({ name: "test: unbounded", tables: ["events"], maxAgeMs: Number.POSITIVE_INFINITY }),
    ).toThrow(/maxAgeMs/);
    expect(() => keptRead<number>({ name: "test: unbounded", tables: ["events"], maxAgeMs: 0 })).toThrow(/maxAgeMs/);
  });

  it.runIf(testDatabaseKind === "postgres")(
    "are dropped, and none kept, while the connection carrying the announcements is lost",
    async () => {
      const feed = followDatabaseChanges(databaseHandle(), 50);
      try {
        await eventually(() => changesAreFollowed());
        const counted = countedEvents();
        await counted.get();
        await counted.get();
        expect(counted.reads()).toBe(1);
        await db().execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN hopewell_changes' and datname = current_database()`,
        );
        await eventually(() => !changesAreFollowed());
        await eventually(() => changesAreFollowed());
        await counted.get();
        expect(counted.reads()).toBe(2);
      } finally {
        await feed.stop();
      }
    },
  );
});
