import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { config } from "../config.server";
import { logger } from "../logger.server";
import { embeddedDatabaseFolder } from "./create-embedded.server";
import { acquireDataDirLock } from "./lock.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Follows a notification channel until the returned function is called; `onLost` when the connection carrying it fails. */
export type Listen = (channel: string, onNotify: (payload: string) => void, onLost: (error: unknown) => void) => Promise<() => Promise<void>>;

/**
 * Takes a session-level advisory lock on the two keys and holds it for as long as this process
 * runs, or until the returned function lets go: PostgreSQL drops it when the session ends, so
 * other processes can tell from `pg_locks` whether the holder still runs. Undefined when
 * another session holds it. `onLost` when the connection carrying it fails (the lock is gone).
 */
export type HoldLock = (keys: readonly [number, number], onLost: (error: unknown) => void) => Promise<(() => Promise<void>) | undefined>;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  listen: Listen;
  holdLock: HoldLock;
  close: () => Promise<void>;
};

export type OpenOptions = {
  /** A postgres:// URL; without one the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  migrationsDir?: string;
};

/** The PostgreSQL extensions the migrations use, which PGlite must load itself (create-embedded.server.ts loads the same). */
export const PGLITE_EXTENSIONS = { pg_trgm };
/**
 * PGlite reads its files through the operating system, which caches them already, so a
 * small buffer pool costs little speed: with PostgreSQL's 128 MB default the server idled
 * at about 400 MB and opened the large demo database in 960 ms; with 16 MB, about 250 MB
 * and 610 ms. With 8 MB it idles about 20 MB lower again (median of three starts, 242 MB
 * against 262 on the large data set) and the review pages, alternated with a 16 MB server,
 * answered in the same time. (PGlite's WebAssembly memory starts at 128 MB whatever is set.)
 */
const PGLITE_SETTINGS = [
  "shared_buffers=8MB",
  // For the same reason a page read at random costs what one read in order does. At the
  // default (4) the planner scanned every letter for a common word rather than take the
  // trigram index's matches: a search took 7.2 ms instead of 4.1.
  "random_page_cost=1.1",
];

export const DEFAULT_MIGRATIONS_DIR = path.resolve("drizzle");

/** Opens the database, applies pending migrations in this process, and returns it. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  if (options.databaseUrl) {
    const pool = createPool(options.databaseUrl);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    // Several app instances may start together: one migrates while the others wait.
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock(727001)");
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock(727001)").catch(() => {});
      client.release();
    }
    return { db, kind: "postgres", listen: postgresListener(options.databaseUrl), holdLock: postgresLockHolder(options.databaseUrl), close: () => pool.end() };
  }

  const release = acquireDataDirLock(options.dataDir);
  try {
    const pgdata = await embeddedDatabaseFolder(options.dataDir, migrationsFolder);
    const client = await PGlite.create({ dataDir: pgdata, extensions: PGLITE_EXTENSIONS, postgresqlconf: PGLITE_SETTINGS });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      db,
      kind: "pglite",
      listen: pgliteListener(client),
      holdLock: pgliteLockHolder(client),
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * The pool of connections to PostgreSQL. A connection can die under the site (a restart, a
 * failover, an operator ending it), and pg reports that as an 'error' event on its client: an
 * 'error' event with no listener stops the process. The pool listens to its idle clients (and
 * reports them: its own 'error' event), not to one checked out (for a transaction, between its
 * queries), so each client gets a listener of its own here. A client lost while checked out
 * goes back to the pool at once, which drops it: drizzle releases a transaction's client only
 * after its BEGIN worked, so one lost before that would stay counted against the pool for
 * good, and enough of them would leave every request waiting. Its holder's next query fails
 * (that request answers with an error); the next requests get new connections.
 */
function createPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on("error", (error) => logger.error({ err: error }, "idle PostgreSQL connection failed"));
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      if (!checkedOut.has(client)) return;
      logger.error({ err: error }, "PostgreSQL connection in use failed");
      const release = client.release;
      // The holder's own release, when it comes, finds nothing left to do (a second one would throw).
      client.release = () => {};
      release(error);
    });
  });
  return pool;
}

/** In-process: PGlite hands a notification over before the query that caused it returns. */
export function pgliteListener(client: PGlite): Listen {
  return async (channel, onNotify) => {
    const unlisten = await client.listen(channel, onNotify);
    return () => unlisten();
  };
}

/** The embedded database has one session, which lasts as long as the process has it open. */
export function pgliteLockHolder(client: PGlite): HoldLock {
  return async ([first, second]) => {
    const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1, $2) as held", [first, second]);
    if (!rows[0]?.held) return undefined;
    return async () => {
      await client.query("select pg_advisory_unlock($1, $2)", [first, second]);
    };
  };
}

/**
 * A session lock needs a connection of its own: a pooled one is closed when idle, and its
 * lock with it, while the process still runs.
 */
export function postgresLockHolder(databaseUrl: string): HoldLock {
  return async ([first, second], onLost) => {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until the lock is held, a failure is the caller's rejection, not also a lost lock.
    let closing = true;
    const lost = (error: unknown) => {
      if (closing) return;
      closing = true;
      client.end().catch(() => {});
      onLost(error);
    };
    client.on("error", lost);
    client.on("end", () => lost(new Error("the lock's connection closed")));
    let held = false;
    try {
      await client.connect();
      const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1, $2) as held", [first, second]);
      held = rows[0]?.held === true;
    } finally {
      if (!held) await client.end().catch(() => {});
    }
    if (!held) return undefined;
    closing = false;
    return async () => {
      closing = true;
      await client.end();
    };
  };
}

/** The payload of the notifications a listener sends itself to know its connection still works. */
const HEARTBEAT = "hopewell:heartbeat";
/**
 * LISTEN needs a connection of its own: a pooled one is shared between queries.
 * A connection can also die without a word (a NAT's idle timeout, a failover, a network
 * cut): nothing then says announcements stopped, and kept copies would be trusted for ever.
 * So the listener notifies itself every `heartbeatMs`; when one has not come back by the
 * next, the connection counts as lost.
 */
export function postgresListener(databaseUrl: string): Listen {
  return async (channel, onNotify, onLost) => {
    // A silent connection is noticed within twice this.
    const heartbeatMs = config().listenHeartbeatMs;
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until LISTEN has worked, a failure is the caller's rejection, not also a lost connection
    // (a refused connection also ends the client): reporting both doubled the retries each time.
    let closing = true;
    const timer: { heartbeat?: NodeJS.Timeout } = {};
    let awaitingBeat = false;
    const lost = (error: unknown) => {
      if (closing) return;
      closing = true;
      clearInterval(timer.heartbeat);
      client.end().catch(() => {});
      onLost(error);
    };
    client.on("notification", (message) => {
      if (message.channel !== channel) return;
      if (message.payload === HEARTBEAT) awaitingBeat = false;
      else onNotify(message.payload ?? "");
    });
    client.on("error", lost);
    client.on("end", () => lost(new Error("the notification connection closed")));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    closing = false;
    timer.heartbeat = setInterval(() => {
      if (awaitingBeat) return lost(new Error(`no answer on the notification connection for ${heartbeatMs} ms`));
      awaitingBeat = true;
      client.query("select pg_notify($1, $2)", [channel, HEARTBEAT]).catch(lost);
    }, heartbeatMs);
    timer.heartbeat.unref();
    return async () => {
      closing = true;
      clearInterval(timer.heartbeat);
      await client.end();
    };
  };
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function rawRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * The database every domain module uses. One copy of this module serves the whole
 * process: the server, the app it runs, and the tests that load both. (Under
 * `npm run dev` an edit makes Vite run the modules again; the server hands each new copy
 * its database: http/app.ts.)
 */
const holder: { handle?: Promise<DatabaseHandle> } = {};

/** Makes `handle` the database every domain module uses (the server at start-up, tests per file). */
export function setDatabase(handle: DatabaseHandle): void {
  holder.handle = Promise.resolve(handle);
}

/** The open database and what it runs on, opened from the configuration on first use. */
export function databaseHandle(): Promise<DatabaseHandle> {
  holder.handle ??= openDatabase({ databaseUrl: config().databaseUrl, dataDir: config().dataDir });
  return holder.handle;
}

/** The open database, opened from the configuration on first use. */
export async function database(): Promise<Database> {
  return (await databaseHandle()).db;
}

export async function closeDatabase(): Promise<void> {
  const handle = holder.handle;
  holder.handle = undefined;
  if (handle) await (await handle).close();
}

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsHealthy(timeoutMs = 2000): Promise<boolean> {
  if (!holder.handle) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const check = (async () => {
    const db = (await holder.handle!).db;
    await db.execute(sql`select 1`);
    return true;
  })().catch(() => false);
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
