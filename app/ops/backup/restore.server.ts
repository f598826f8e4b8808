import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { DEFAULT_MIGRATIONS_DIR, PGLITE_EXTENSIONS } from "~/platform/db/client.server";
import { DatabaseSettingError, explainDatabaseError } from "~/platform/db/connect-errors.server";
import { acquireDataDirLock, DataDirLockedError } from "~/platform/db/lock.server";
import { storedKeys, removeFile, saveFile } from "~/platform/storage/storage.server";
import { BackupError, MIGRATIONS_TABLE, quoteName, type Manifest } from "./format.server";
import { checkSchemaVersion, unpack } from "./unpack.server";
import { makeStage, removeLeftoverStages, removeStage, RESTORE_STAGE_PREFIX } from "./stages.server";

const BATCH = 1000;
/** What both drivers answer a query with. */
type Sql = { query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> };

type Target = { sql: Sql; close: () => Promise<void>; discardIfNew: () => Promise<void> };

async function openTarget(databaseUrl: string | undefined, dataDir: string): Promise<Target> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    // A connection lost during the restore fails the query in flight, which reports it; the
    // client's 'error' event, with no listener, would stop the process with a stack trace.
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      // As the site's start and the other commands say it: which part of DATABASE_URL to check.
      const explained = explainDatabaseError(error, databaseUrl);
      if (explained instanceof DatabaseSettingError) throw explained;
      throw new BackupError(`Could not connect to the database at DATABASE_URL: ${(error as Error).message}`);
    }
    return { sql: client, close: () => client.end(), discardIfNew: async () => {} };
  }
  let release: () => void;
  try {
    release = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `${error.message.replace(/ Stop it first.*$/, "")} The site must be stopped before a restore replaces its data.`,
      );
    }
    throw error;
  }
  const pgdata = path.join(dataDir, "pgdata");
  const isNew = !fs.existsSync(pgdata);
  try {
    const client = await PGlite.create({ dataDir: pgdata, extensions: PGLITE_EXTENSIONS });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        release();
      }
    };
    return {
      sql: client,
      close,
      // A failed restore into a new directory leaves no half-made database behind.
      discardIfNew: async () => {
        if (!isNew) return;
        await close();
        await fs.promises.rm(pgdata, { recursive: true, force: true });
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

async function appTables(sql: Sql): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition and n.nspname = 'public' order by 1`,
  );
  return rows.map((row) => row.name);
}

/** Parents before children, from the foreign keys in the catalog. */
async function insertOrder(sql: Sql, tables: string[]): Promise<string[]> {
  const { rows } = await sql.query<{ child: string; parent: string }>(
    `select cn.nspname || '.' || cc.relname as child, pn.nspname || '.' || pc.relname as parent
     from pg_constraint k
     join pg_class cc on cc.oid = k.conrelid join pg_namespace cn on cn.oid = cc.relnamespace
     join pg_class pc on pc.oid = k.confrelid join pg_namespace pn on pn.oid = pc.relnamespace
     where k.contype = 'f'`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables);
  while (pending.size > 0) {
    const ready = [...pending].filter(
      (table) => !rows.some((fk) => fk.child === table && fk.parent !== table && pending.has(fk.parent)),
    );
    if (ready.length === 0)
      throw new BackupError(
        `The tables ${[...pending].join(", ")} reference each other in a cycle; cannot order the restore.`,
      );
    for (const table of ready) {
      pending.delete(table);
      ordered.push(table);
    }
  }
  return ordered;
}

async function restoreTable(sql: Sql, table: string, file: string): Promise<void> {
  const { rows: columns } = await sql.query<{ name: string; identity: string; generated: string; serial: boolean }>(
    `select attname as name, attidentity as identity, attgenerated as generated,
            pg_get_serial_sequence($2, attname) is not null as serial
     from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [table, quoteName(table)],
  );
  if (columns.length === 0) throw new BackupError(`The backup holds the table ${table}, which the schema lacks.`);
  const names = columns
    .filter((column) => column.generated === "")
    .map((column) => `"${column.name.replaceAll('"', '""')}"`);
  const overriding = columns.some((column) => column.identity === "a") ? " overriding system value" : "";
  const statement = `insert into ${quoteName(table)} (${names.join(", ")})${overriding} select ${names.join(", ")} from json_populate_recordset(null::${quoteName(table)}, $1::json)`;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await sql.query(statement, [`[${batch.join(",")}]`]);
    batch = [];
  };
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    if (line === "") continue;
    batch.push(line);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  // Sequences continue after the restored rows, so the next insert gets a fresh id.
  for (const column of columns.filter((candidate) => candidate.serial)) {
    const name = `"${column.name.replaceAll('"', '""')}"`;
    await sql.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${name}), 1), max(${name}) is not null) from ${quoteName(table)}`,
      [quoteName(table), column.name],
    );
  }
}

export type RestoreOptions = {
  file: string;
  databaseUrl?: string;
  dataDir: string;
  force?: boolean;
  trustUnsigned?: boolean;
  migrationsDir?: string;
};
/** `unchecked`: why the archive's signature did not hold, when the operator trusted it anyway. */
export type RestoreResult = { manifest: Manifest; rows: number; files: number; ms: number; unchecked?: string };

/**
 * Restores a backup into an empty database (or, with `force`, over an existing one). The
 * archive is unpacked and checked first; the schema is rebuilt to the archive's version and
 * every row inserted in one transaction, checked against the manifest's counts before the
 * commit; the files are written only after it. Newer migrations run when the site starts.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const migrationsDir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  // An archive unpacked by a restore killed before it ended is a plain copy of a database.
  await removeLeftoverStages(os.tmpdir(), RESTORE_STAGE_PREFIX).catch(() => []);
  const unpacked = await makeStage(os.tmpdir(), RESTORE_STAGE_PREFIX);
  try {
    const { manifest, unchecked } = await unpack(path.resolve(options.file), unpacked, {
      dataDir: options.dataDir,
      trustUnsigned: options.trustUnsigned,
    });
    checkSchemaVersion(manifest, migrationsDir);

    const target = await openTarget(options.databaseUrl, options.dataDir);
    let committed = false;
    try {
      const { sql } = target;
      const existing = await appTables(sql);
      if (!options.force) {
        const filled: string[] = [];
        for (const table of existing) {
          const { rows } = await sql.query<{ any: boolean }>(
            `select exists (select 1 from ${quoteName(table)}) as any`,
          );
          if (rows[0]?.any) filled.push(table);
        }
        const stored = await storedKeys();
        if (filled.length > 0 || stored.length > 0) {
          const where = options.databaseUrl ? "The database" : `The data directory ${options.dataDir}`;
          throw new BackupError(
            `${where} is not empty (${filled.length} tables with rows, ${stored.length} stored files). Restore into an empty one, or add --force to replace everything in it.`,
          );
        }
      }

      await sql.query("begin");
      try {
        if (existing.length > 0) {
          await sql.query("drop schema public cascade");
          await sql.query("create schema public");
        }
        await sql.query("drop schema if exists drizzle cascade");
        for (const migration of readMigrationFiles({ migrationsFolder: migrationsDir })) {
          if (migration.folderMillis > manifest.schemaVersionAt) break;
          for (const statement of migration.sql) if (statement.trim()) await sql.query(statement);
        }
        // The journal table as drizzle creates it; its rows come from the archive.
        await sql.query("create schema drizzle");
        await sql.query(
          `create table ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
        );

        const known = new Set([MIGRATIONS_TABLE, ...(await appTables(sql))]);
        const unknown = manifest.tables.map((table) => table.name).filter((name) => !known.has(name));
        if (unknown.length > 0) {
          throw new BackupError(
            `This backup holds ${unknown.length === 1 ? "a table" : "tables"} the site's schema at ${manifest.schemaVersion} does not have (${unknown.join(", ")}): it was not written by this site, or it was changed since. Nothing was restored.`,
          );
        }
        const byName = new Map(manifest.tables.map((table) => [table.name, table]));
        for (const table of await insertOrder(sql, [...byName.keys()])) {
          await restoreTable(sql, table, path.join(unpacked, byName.get(table)!.file));
        }
        for (const table of manifest.tables) {
          const { rows } = await sql.query<{ n: string }>(`select count(*)::text as n from ${quoteName(table.name)}`);
          if (Number(rows[0]?.n) !== table.rows) {
            throw new BackupError(
              `${table.name} has ${rows[0]?.n} rows after the restore, the backup says ${table.rows}. Nothing was restored.`,
            );
          }
        }
        await sql.query("commit");
        committed = true;
      } catch (error) {
        await sql.query("rollback").catch(() => {});
        throw error;
      }

      // Every file was checked against its hash above; each is written under a temporary
      // name and renamed into place by the storage module.
      try {
        const keep = new Set(manifest.files.map((stored) => stored.key));
        if (options.force) for (const key of await storedKeys()) if (!keep.has(key)) await removeFile(key);
        for (const stored of manifest.files)
          await saveFile(stored.key, await fs.promises.readFile(path.join(unpacked, "files", stored.key)));
      } catch (error) {
        throw new BackupError(
          `The database was restored, but writing the uploaded files failed (${(error as Error).message}). Fix that (free space, permissions) and run the restore again with --force.`,
        );
      }
    } catch (error) {
      if (!committed) await target.discardIfNew().catch(() => {});
      throw error;
    } finally {
      await target.close();
    }
    return {
      manifest,
      rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      files: manifest.files.length,
      ms: Math.round(performance.now() - started),
      unchecked,
    };
  } finally {
    await removeStage(unpacked).catch(() => {});
  }
}
