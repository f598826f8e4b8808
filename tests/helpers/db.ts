import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as tar from "tar";
import { afterAll, beforeAll, inject } from "vitest";
import {
  closeDatabase,
  PGLITE_EXTENSIONS,
  pgliteListener,
  pgliteLockHolder,
  setDatabase,
  type Database,
  type DatabaseHandle,
} from "~/platform/db/client.server";
import { PGliteWithPreparedStatements } from "~/platform/db/pglite-statements.server";
import { postgresListener, postgresLockHolder } from "~/platform/db/postgres.server";
import * as schema from "~/platform/db/schema";
import { withDatabaseName } from "./database-urls";

/** "postgres" when the suite runs on a real PostgreSQL server (TEST_DATABASE_URL). */
export const testDatabaseKind: "pglite" | "postgres" = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/** Drizzle's logger: sees every query the app makes through `database()`, with its parameters. */
export type QueryLogger = { logQuery(query: string, params: unknown[]): void };

let snapshot: Blob | undefined;
/** The suite's migrated database as PGlite loads it, read once by each worker (its files share this module). */
function migratedSnapshot(): Blob {
  snapshot ??= new Blob([fs.readFileSync(inject("pgliteSnapshot"))]);
  return snapshot;
}

/** A fresh, migrated database of its own for one test file (its queries shown to `logger`, if given). */
export async function createTestDatabase({ logger }: { logger?: QueryLogger } = {}): Promise<DatabaseHandle> {
  const template = inject("postgresTemplate");
  const url = process.env.TEST_DATABASE_URL;
  if (url && template) {
    // Named after the run's template, so the run's teardown can find any database a test file left behind.
    const name = `${template.replace("hopewell_tpl_", "hopewell_test_")}_${crypto.randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const pool = new pg.Pool({ connectionString: withDatabaseName(url, name), max: 5 });
    // Dropping the database ends connections that are still closing; that is expected here.
    pool.on("error", (error) => {
      if ((error as { code?: string }).code !== "57P01") throw error;
    });
    return {
      db: drizzlePg(pool, { schema, logger }) as unknown as Database,
      kind: "postgres",
      listen: postgresListener(withDatabaseName(url, name)),
      holdLock: postgresLockHolder(withDatabaseName(url, name)),
      close: async () => {
        await pool.end();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const client = await PGliteWithPreparedStatements.open({
    loadDataDir: migratedSnapshot(),
    extensions: PGLITE_EXTENSIONS,
  });
  return {
    db: drizzlePglite(client, { schema, logger }) as unknown as Database,
    kind: "pglite",
    listen: pgliteListener(client),
    holdLock: pgliteLockHolder(client),
    close: () => client.close(),
  };
}

/**
 * Gives the test file its own migrated database and makes it the one the app's
 * domain modules use. Returns a getter for tests that query it directly.
 */
export function withTestDatabase(options: { logger?: QueryLogger } = {}): () => Database {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await createTestDatabase(options);
    setDatabase(handle);
  });
  afterAll(async () => {
    await closeDatabase();
  });
  return () => {
    if (!handle) throw new Error("The test database is opened in beforeAll");
    return handle.db;
  };
}

/**
 * Puts the suite's migrated database (the snapshot every test file loads) into `dataDir`, as
 * the embedded database a server started on that DATA_DIR opens: the server then skips
 * PGlite's initdb and the migrations, about 13 s of CPU per start. For tests of what a running
 * server does; a test of a first start on an empty DATA_DIR keeps an empty one.
 */
export function unpackMigratedDatabase(dataDir: string): string {
  const pgdata = path.join(dataDir, "pgdata");
  fs.mkdirSync(pgdata, { recursive: true });
  // The archive's names start with "/": tar strips that, so everything lands under pgdata/.
  tar.x({ file: inject("pgliteSnapshot"), cwd: pgdata, sync: true });
  return dataDir;
}
