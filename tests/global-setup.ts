import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrationsHash, withDatabaseName } from "./helpers/database-urls";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory with every migration applied, as a tar archive (uncompressed: see pgliteSnapshot). */
    pgliteSnapshot: string;
    /** With TEST_DATABASE_URL: a migrated database each test file copies. */
    postgresTemplate: string | undefined;
  }
}

const MIGRATIONS = path.resolve("drizzle");

/**
 * A fresh initdb costs PGlite about 4 s, so it runs once per change of the
 * migrations: the migrated data directory is cached and each test file loads it.
 * Uncompressed (about 43 MB against 5 MB): unzipping it took about 0.3 s of each file's 0.8 s
 * to open its database.
 */
async function pgliteSnapshot(): Promise<string> {
  const file = path.join(os.tmpdir(), `hopewell-test-snapshot-${migrationsHash(MIGRATIONS)}.tar`);
  if (fs.existsSync(file)) return file;
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(temp, file);
  return file;
}

async function postgresTemplate(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `hopewell_tpl_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new pg.Client({ connectionString: withDatabaseName(url, name) });
  await client.connect();
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
  await client.end();
  return {
    name,
    drop: async () => {
      // Every test file drops the database it made; one left behind is a leak in that file's clean-up.
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
        `${name.replace("hopewell_tpl_", "hopewell_test_")}\\_%`,
      ]);
      for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      if (rows.length > 0) {
        // Vitest reports an error thrown here but still exits 0, so the run is failed explicitly.
        console.error(`Test files left databases behind: ${rows.map((row) => row.datname).join(", ")}`);
        process.exitCode = 1;
      }
    },
  };
}

export default async function setup(project: TestProject) {
  project.provide("pgliteSnapshot", await pgliteSnapshot());
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    project.provide("postgresTemplate", undefined);
    return;
  }
  const template = await postgresTemplate(url);
  project.provide("postgresTemplate", template.name);
  return template.drop;
}
