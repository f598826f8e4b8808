import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { config } from "../config.server";
import { logger } from "../logger.server";
import { embeddedDatabaseFolder } from "./create-embedded.server";
import { acquireDataDirLock } from "./lock.server";
import { maintainEmbeddedDatabase } from "./maintenance.server";
import { PGliteWithPreparedStatements } from "./pglite-statements.server";
import type { Database, DatabaseHandle, HoldLock, Listen } from "./handle.server";
import * as schema from "./schema";

// The database's types live in handle.server.ts, which postgres.server.ts (loaded from here on
// demand) names them from without importing this module back; they are handed on from here.
export type { Database, DatabaseHandle, HoldLock, Listen, Transaction } from "./handle.server";

export type OpenOptions = {
  /** A postgres:// URL; without one the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  migrationsDir?: string;
  /**
   * False to use the database at the schema it has. A backup takes it so: run with a newer
   * version's code before that version has started (after a `git pull`, before the restart), it
   * would otherwise move the live database to the new schema under the running site, and write a
   * backup the previous version refuses to restore.
   */
  migrate?: boolean;
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

/** Opens the database, applies pending migrations in this process (unless told not to), and returns it. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const migrate = options.migrate ?? true;
  if (options.databaseUrl) {
    // PostgreSQL's driver is loaded only for a site that uses it (about 3 MB of memory otherwise held for nothing).
    const { openPostgres } = await import("./postgres.server");
    return openPostgres(options.databaseUrl, migrate ? migrationsFolder : null);
  }

  const release = acquireDataDirLock(options.dataDir);
  try {
    const pgdata = await embeddedDatabaseFolder(options.dataDir, migrationsFolder);
    const client = await PGliteWithPreparedStatements.open({
      dataDir: pgdata,
      extensions: PGLITE_EXTENSIONS,
      postgresqlconf: PGLITE_SETTINGS,
    });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    if (migrate) {
      const appliedBefore = await appliedMigrations(client);
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      // A migration that rewrote a table leaves the old rows dead and new columns without
      // statistics, and the embedded database has no autovacuum: until the maintenance job's
      // first run the queries would read the dead rows and be planned blind. Done before serving.
      if ((await appliedMigrations(client)) > appliedBefore) {
        const began = performance.now();
        try {
          await maintainEmbeddedDatabase(db);
          logger.info({ ms: Math.round(performance.now() - began) }, "database statistics refreshed after migrating");
        } catch (error) {
          // The migrated database is whole without it: the maintenance job tries again later.
          logger.warn({ err: error }, "refreshing the database's statistics after migrating failed");
        }
      }
    }
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
 * How many migrations the embedded database has applied (drizzle's own record of them): none when
 * it has no record yet, as after a first start stopped between making the database and migrating it.
 */
async function appliedMigrations(client: PGlite): Promise<number> {
  const { rows: record } = await client.query<{ table: string | null }>(
    "select to_regclass('drizzle.__drizzle_migrations')::text as table",
  );
  if (!record[0]?.table) return 0;
  const { rows } = await client.query<{ applied: number }>(
    "select count(*)::int as applied from drizzle.__drizzle_migrations",
  );
  return rows[0]?.applied ?? 0;
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
    const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1, $2) as held", [
      first,
      second,
    ]);
    if (!rows[0]?.held) return undefined;
    return async () => {
      await client.query("select pg_advisory_unlock($1, $2)", [first, second]);
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
