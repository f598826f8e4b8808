import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_MIGRATIONS_DIR } from "~/platform/db/client.server";

/**
 * A backup is a .tar.gz holding manifest.json, one JSON-lines file per database table
 * (db/<schema>.<table>.jsonl, one row_to_json object a line) and the stored files
 * (files/<storage key>). The manifest lists every part with its sha256, so a damaged
 * archive is found before anything is restored.
 */
export const FORMAT = "hopewell-backup";
export const FORMAT_VERSION = 1;
/** Where drizzle records the migrations it applied; restored like any table. */
export const MIGRATIONS_TABLE = "drizzle.__drizzle_migrations";

export type ManifestTable = { name: string; rows: number; file: string; sha256: string };
export type ManifestFile = { key: string; size: number; sha256: string };
export type Manifest = {
  format: typeof FORMAT;
  formatVersion: number;
  createdAt: string;
  database: "pglite" | "postgres";
  /** The last migration applied to the dumped database (its tag, e.g. 0005_letters_search_text). */
  schemaVersion: string;
  /** That migration's timestamp, so a newer archive is recognised even when its tag is unknown. */
  schemaVersionAt: number;
  tables: ManifestTable[];
  files: ManifestFile[];
};

/** A problem the operator can act on: printed as it is, without a stack trace. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export type JournalEntry = { idx: number; when: number; tag: string };

export function migrationJournal(migrationsDir = DEFAULT_MIGRATIONS_DIR): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/** The journal entry of the last applied migration, from its created_at (drizzle stores the journal's `when`). */
export function schemaVersionOf(lastAppliedAt: number | null, migrationsDir?: string): { tag: string; when: number } {
  if (lastAppliedAt === null) return { tag: "none", when: 0 };
  const entry = migrationJournal(migrationsDir).find((candidate) => candidate.when === lastAppliedAt);
  return { tag: entry?.tag ?? `unknown-${lastAppliedAt}`, when: lastAppliedAt };
}

export function quoteName(qualified: string): string {
  return qualified
    .split(".")
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join(".");
}

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Backup file names sort by the time they were taken. */
export function backupFileName(now = new Date()): string {
  return `hopewell-backup-${now.toISOString().replaceAll(":", "-").replace(".", "-")}.tar.gz`;
}
export const BACKUP_FILE_PATTERN = /^hopewell-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/;
