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
import { acquireDataDirLock } from "./lock.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
};

export type OpenOptions = {
  /** A postgres:// URL; without one the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  migrationsDir?: string;
};

/** The PostgreSQL extensions the migrations use, which PGlite must load itself. */
export const PGLITE_EXTENSIONS = { pg_trgm };
/**
 * PGlite reads its files through the operating system, which caches them already, so a
 * small buffer pool costs little speed: with PostgreSQL's 128 MB default the server idled
 * at about 400 MB and opened the large demo database in 960 ms; with 16 MB, about 250 MB
 * and 610 ms.
 */
const PGLITE_SETTINGS = ["shared_buffers=16MB"];

export const DEFAULT_MIGRATIONS_DIR = path.resolve("drizzle");

/** Opens the database, applies pending migrations in this process, and returns it. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on("error", (error) => logger.error({ err: error }, "idle PostgreSQL connection failed"));
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
    return { db, kind: "postgres", close: () => pool.end() };
  }

  const release = acquireDataDirLock(options.dataDir);
  try {
    const client = await PGlite.create({ dataDir: path.join(options.dataDir, "pgdata"), extensions: PGLITE_EXTENSIONS, postgresqlconf: PGLITE_SETTINGS });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    return {
      db,
      kind: "pglite",
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

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function rawRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

// Kept on globalThis so the dev server's module reloads reuse one connection.
type Holder = { handle?: Promise<DatabaseHandle> };
const holder = ((globalThis as Record<symbol, Holder>)[Symbol.for("hopewell.database")] ??= {});

/** Makes `handle` the database every domain module uses (the server at start-up, tests per file). */
export function setDatabase(handle: DatabaseHandle): void {
  holder.handle = Promise.resolve(handle);
}

/** The open database, opened from the configuration on first use. */
export async function database(): Promise<Database> {
  holder.handle ??= openDatabase({ databaseUrl: config().databaseUrl, dataDir: config().dataDir });
  return (await holder.handle).db;
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
