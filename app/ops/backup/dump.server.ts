import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { rawRows, type Database, type Transaction } from "~/platform/db/client.server";
import { config } from "~/platform/config.server";
import { holdingDatabase } from "~/platform/db/holds.server";
import { storedKeys, readFile } from "~/platform/storage/storage.server";
import {
  BackupError,
  FORMAT,
  FORMAT_VERSION,
  MIGRATIONS_TABLE,
  quoteName,
  schemaVersionOf,
  type Manifest,
  type ManifestFile,
  type ManifestTable,
} from "./format.server";
import { ensureBackupKey, signManifest, SIGNATURE_FILE } from "./signature.server";
import { BACKUP_STAGE_PREFIX, makeStage, removeLeftoverStages, removeStage } from "./stages.server";

const BATCH = 1000;

/** Every table of the app's schema, found in the catalog so a table added later is included, plus drizzle's journal. */
async function tablesToDump(tx: Transaction): Promise<string[]> {
  const rows = await rawRows<{ name: string }>(
    tx as unknown as Database,
    sql`select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and not c.relispartition and n.nspname = 'public' order by 1`,
  );
  const journal = await rawRows<{ present: boolean }>(
    tx as unknown as Database,
    sql`select to_regclass(${MIGRATIONS_TABLE}) is not null as present`,
  );
  return [...(journal[0]?.present ? [MIGRATIONS_TABLE] : []), ...rows.map((row) => row.name)];
}

/** Streams one table through a cursor in batches, so a large table never sits in memory whole. */
async function dumpTable(tx: Transaction, table: string, file: string): Promise<{ rows: number; sha256: string }> {
  const db = tx as unknown as Database;
  const hash = crypto.createHash("sha256");
  const out = await fs.promises.open(file, "wx");
  let rows = 0;
  try {
    await db.execute(
      sql.raw(
        `declare backup_rows no scroll cursor for select row_to_json(t)::text as line from ${quoteName(table)} t`,
      ),
    );
    for (;;) {
      const batch = await rawRows<{ line: string }>(db, sql.raw(`fetch ${BATCH} from backup_rows`));
      if (batch.length === 0) break;
      const text = batch.map((row) => `${row.line}\n`).join("");
      hash.update(text);
      await out.write(text);
      rows += batch.length;
    }
    await db.execute(sql.raw("close backup_rows"));
  } finally {
    await out.close();
  }
  return { rows, sha256: hash.digest("hex") };
}

async function copyStoredFile(key: string, file: string): Promise<ManifestFile | null> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const hash = crypto.createHash("sha256");
  const out = await fs.promises.open(file, "wx");
  let size = 0;
  try {
    for await (const chunk of readFile(key)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
      await out.write(chunk as Buffer);
    }
  } catch (error) {
    // Deleted since it was listed (its row is then gone too, or will be): nothing to keep.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      await out.close();
      await fs.promises.rm(file, { force: true });
      return null;
    }
    throw error;
  } finally {
    await out.close().catch(() => {});
  }
  return { key, size, sha256: hash.digest("hex") };
}

/** `leftovers`: the stage folders of backups killed before they ended, removed before this one (stages.server.ts). */
/** Every table into `stageDir`/db, in the transaction's one snapshot, and the last migration applied. */
async function dumpTables(
  tx: Transaction,
  stageDir: string,
): Promise<{ tables: ManifestTable[]; lastAppliedAt: number | null }> {
  const tables: ManifestTable[] = [];
  for (const name of await tablesToDump(tx)) {
    const file = `db/${name}.jsonl`;
    tables.push({ name, file, ...(await dumpTable(tx, name, path.join(stageDir, file))) });
  }
  const last = tables.some((table) => table.name === MIGRATIONS_TABLE)
    ? await rawRows<{ at: string | null }>(
        tx as unknown as Database,
        sql.raw(`select max(created_at)::text as at from ${MIGRATIONS_TABLE}`),
      )
    : [];
  return { tables, lastAppliedAt: last[0]?.at ? Number(last[0].at) : null };
}

export type BackupResult = { file: string; manifest: Manifest; ms: number; leftovers: string[] };

/**
 * Writes a complete backup to `target` while the site keeps running: the tables are read in
 * one REPEATABLE READ, read-only transaction (one consistent snapshot), then the stored files.
 * The archive appears under its name only when complete; on any failure nothing is left.
 */
export async function createBackup(db: Database, kind: "pglite" | "postgres", target: string): Promise<BackupResult> {
  const started = performance.now();
  const dir = path.dirname(path.resolve(target));
  let stage: string | undefined;
  try {
    await fs.promises.mkdir(dir, { recursive: true });
    // Made here too when the site never started in this DATA_DIR (a backup of a PostgreSQL site from another machine).
    const { key: backupKey } = ensureBackupKey(config().dataDir);
    const leftovers = await removeLeftoverStages(dir, BACKUP_STAGE_PREFIX, { earlierVersions: true });
    stage = await makeStage(dir, BACKUP_STAGE_PREFIX);
    await fs.promises.mkdir(path.join(stage, "db"));
    const stageDir = stage;
    // Written inside the stage too, so whatever a killed backup leaves is in one folder the next one removes.
    const partial = path.join(stageDir, "archive.tar.gz.partial");

    const { tables, lastAppliedAt } = await holdingDatabase("a backup", () =>
      db.transaction((tx) => dumpTables(tx, stageDir), { isolationLevel: "repeatable read", accessMode: "read only" }),
    );

    const files: ManifestFile[] = [];
    for (const key of await storedKeys()) {
      const copied = await copyStoredFile(key, path.join(stageDir, "files", key));
      if (copied) files.push(copied);
    }

    const version = schemaVersionOf(lastAppliedAt);
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      database: kind,
      schemaVersion: version.tag,
      schemaVersionAt: version.when,
      tables,
      files,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await fs.promises.writeFile(path.join(stageDir, "manifest.json"), manifestBytes);
    // The manifest names every part's sha256, so its signature covers the whole archive.
    await fs.promises.writeFile(path.join(stageDir, SIGNATURE_FILE), signManifest(backupKey, manifestBytes));
    const parts = ["manifest.json", SIGNATURE_FILE, "db", ...(files.length > 0 ? ["files"] : [])];
    // Loaded here: the archive code is needed once a day, not in every request's memory.
    const tar = await import("tar");
    await tar.c({ gzip: true, file: partial, cwd: stageDir, portable: true }, parts);
    // It holds password hashes, sessions and contact details: for the owner's eyes only.
    await fs.promises.chmod(partial, 0o600);
    await fs.promises.rename(partial, target);
    return { file: path.resolve(target), manifest, ms: Math.round(performance.now() - started), leftovers };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code && /^E[A-Z]+$/.test(code)) {
      throw new BackupError(`Could not write the backup in ${dir}: ${(error as Error).message}. Nothing was kept.`);
    }
    throw error;
  } finally {
    if (stage) await removeStage(stage).catch(() => {});
  }
}
