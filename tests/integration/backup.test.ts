import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKUP_FILE_PATTERN } from "~/ops/backup/format.server";
import { BACKUP_KEY_FILE } from "~/ops/backup/signature.server";
import { overrideConfig, parseConfig } from "~/platform/config.server";
import { openDatabase, rawRows, type DatabaseHandle } from "~/platform/db/client.server";
import { seedDemo } from "~/ops/demo/seed.server";
import { sql } from "drizzle-orm";
import { withDatabaseName } from "../helpers/database-urls";
import { unpackMigratedDatabase } from "../helpers/db";
import { run, startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { withTempDirs } from "../helpers/temp-dirs";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

// A real server process from the production build, as `npm start` runs it.
const PG_URL = process.env.TEST_DATABASE_URL;
const SMALL_CLUB = { members: 8, events: 2, pels: 12, orders: 6, letters: 6, research: 3 };
const NO_STACK = /\n\s+at /;

const tempDir = withTempDirs();

async function cli(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    DATABASE_URL: "",
    ...env,
  });
  const { code } = await child.exited;
  return { code, output: child.output() };
}

/** Every row of every table (and the migrations journal), as JSON text, sorted. */
async function tablesOf(handle: DatabaseHandle): Promise<Record<string, string[]>> {
  const names = await rawRows<{ name: string }>(
    handle.db,
    sql`select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`,
  );
  const tables: Record<string, string[]> = {};
  for (const { name } of names) {
    const rows = await rawRows<{ line: string }>(
      handle.db,
      sql.raw(`select row_to_json(t)::text as line from ${name.replace(".", '."').replace(/$/, '"')} t`),
    );
    tables[name] = rows.map((row) => row.line).sort();
  }
  return tables;
}

function filesOf(dataDir: string): Record<string, string> {
  const root = path.join(dataDir, "files");
  if (!fs.existsSync(root)) return {};
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found[path.relative(root, full)] = crypto.createHash("sha256").update(fs.readFileSync(full)).digest("hex");
  }
  return found;
}

/** A club made by the demo's factories, with research files, in `dataDir` (and on `databaseUrl` when given). */
async function makeClub(dataDir: string, databaseUrl?: string): Promise<void> {
  overrideConfig({ dataDir, databaseUrl });
  // An embedded database starts from the migrated snapshot rather than its own initdb: what is backed up is the club.
  if (!databaseUrl) unpackMigratedDatabase(dataDir);
  const handle = await openDatabase({ dataDir, databaseUrl });
  try {
    await seedDemo(handle.db, SMALL_CLUB);
  } finally {
    await handle.close();
  }
}

/** `target`, given the key that signed `source`'s backups, as an operator moving a site copies it first. */
function withBackupKeyOf(source: string, target: string): string {
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(path.join(source, BACKUP_KEY_FILE), path.join(target, BACKUP_KEY_FILE));
  return target;
}

const startServer = (env: Record<string, string>) => startBuiltServer({ DATABASE_URL: "", ...env });

async function stopServer(server: RunningProcess): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

async function compare(
  source: { dataDir: string; databaseUrl?: string },
  restored: { dataDir: string; databaseUrl?: string },
) {
  const a = await openDatabase(source);
  const b = await openDatabase(restored);
  try {
    const before = await tablesOf(a);
    const after = await tablesOf(b);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(before["public.profiles"]!.length).toBeGreaterThanOrEqual(SMALL_CLUB.members);
    expect(before["public.research"]!.length).toBe(SMALL_CLUB.research);
    // The club's own facts, as its managers changed them.
    expect(before["public.club_fact_versions"]!.length).toBeGreaterThan(0);
  } finally {
    await a.close();
    await b.close();
  }
  const files = filesOf(source.dataDir);
  expect(Object.keys(files)).toHaveLength(SMALL_CLUB.research);
  expect(filesOf(restored.dataDir)).toEqual(files);
}

describe("backup settings", () => {
  it("names a bad BACKUP_EVERY or BACKUP_KEEP", () => {
    expect(() => parseConfig({ BACKUP_EVERY: "daily" })).toThrow(/BACKUP_EVERY: must be a duration such as 24h/);
    expect(() => parseConfig({ BACKUP_KEEP: "0" })).toThrow(/BACKUP_KEEP/);
    expect(parseConfig({ BACKUP_EVERY: "6h" }).backup.everyMs).toBe(6 * 3_600_000);
  });
});

describe.runIf(!PG_URL)("backups on the embedded database while the site runs", () => {
  let dataDir: string;
  let backupDir: string;
  let archive: string;
  let server: RunningProcess;
  let url: string;

  beforeAll(async () => {
    dataDir = tempDir("backup-source");
    backupDir = tempDir("backup-dir");
    archive = path.join(tempDir("backup-out"), "club.tar.gz");
    await makeClub(dataDir);
    ({ server, url } = await startServer({
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      BACKUP_EVERY: "2s",
      BACKUP_KEEP: "2",
    }));
  }, 180_000);
  afterAll(async () => {
    if (server.child.exitCode === null) await stopServer(server);
  });

  it("listens on a control socket only its owner may use", () => {
    const socket = fs.statSync(path.join(dataDir, "hopewell.sock"));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  });

  it("creates a user through the running server", async () => {
    const created = await cli(
      "admin",
      [
        "create-user",
        "--email",
        "boss@example.org",
        "--password",
        "Choose#1877",
        "--first",
        "Ada",
        "--last",
        "Boss",
        "--role",
        "manager",
      ],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(created.output).toContain("Created boss@example.org (manager).");
    expect(created.code).toBe(0);
    const again = await cli("admin", ["set-role", "--email", "nobody@example.org", "--role", "player"], {
      DATA_DIR: dataDir,
    });
    expect(again.output).toContain("No account has the email nobody@example.org.");
    expect(again.code).toBe(1);
  }, 60_000);

  it("writes a backup while the site runs", async () => {
    const written = await cli("backup", ["--out", archive], { DATA_DIR: dataDir });
    expect(written.output).toMatch(
      /Backup written to .*club\.tar\.gz: schema \d{4}_\w+, \d+ tables, \d+ rows, 3 files/,
    );
    expect(written.code).toBe(0);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    // Still serving; a page, not /healthz, whose write would make the database differ from the archive.
    expect((await fetch(`${url}/auth`)).status).toBe(200);
  }, 60_000);

  it("says the site is running instead of a stack trace for seed:demo and restore", async () => {
    const seeded = await cli("seed-demo", [], { DATA_DIR: dataDir });
    expect(seeded.code).toBe(1);
    expect(seeded.output).toMatch(/is in use by another process \(pid \d+\)/);
    expect(seeded.output).not.toMatch(NO_STACK);
    const restored = await cli("restore", [archive, "--force"], { DATA_DIR: dataDir });
    expect(restored.code).toBe(1);
    expect(restored.output).toMatch(
      /in use by another process \(pid \d+\)\. The site must be stopped before a restore/,
    );
    expect(restored.output).not.toMatch(NO_STACK);
  }, 60_000);

  it("takes scheduled backups and keeps only the newest", async () => {
    await server.waitFor(/("msg":"scheduled backup written"[^\n]*\n[^]*){3}/, 60_000);
    // Stopping waits for a backup under way, so the folder holds only finished ones.
    await stopServer(server);
    expect(fs.existsSync(path.join(dataDir, "hopewell.sock"))).toBe(false);
    const kept = fs.readdirSync(backupDir);
    expect(kept.filter((name) => BACKUP_FILE_PATTERN.test(name))).toHaveLength(2);
    expect(kept).toHaveLength(2);
  }, 90_000);

  it("restores into a fresh data directory with every table and file as they were", async () => {
    const fresh = withBackupKeyOf(dataDir, tempDir("backup-restored"));
    const restored = await cli("restore", [archive], { DATA_DIR: fresh });
    expect(restored.output).toMatch(/Restored .* into the embedded database/);
    expect(restored.code).toBe(0);
    await compare({ dataDir }, { dataDir: fresh });
  }, 120_000);

  it("refuses to restore over a data directory that has data, unless forced", async () => {
    const refused = await cli("restore", [archive], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /is not empty \(\d+ tables with rows, 3 stored files\)\. Restore into an empty one, or add --force/,
    );
    const forced = await cli("restore", [archive, "--force"], { DATA_DIR: dataDir });
    expect(forced.code).toBe(0);
  }, 120_000);

  it("says what to do when the files cannot be written after the database was restored", async () => {
    const fresh = withBackupKeyOf(dataDir, tempDir("backup-files-blocked"));
    fs.mkdirSync(path.join(fresh, "files"));
    fs.writeFileSync(path.join(fresh, "files", "research"), "");
    const failed = await cli("restore", [archive], { DATA_DIR: fresh });
    expect(failed.output).toMatch(
      /The database was restored, but writing the uploaded files failed \(.*\)\. Fix that \(free space, permissions\) and run the restore again with --force\./,
    );
    expect(failed.output).not.toMatch(NO_STACK);
    expect(failed.code).toBe(1);
  }, 120_000);

  it.each([
    ["truncated", (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))],
    [
      "corrupted",
      (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        copy[Math.floor(copy.length / 2)]! ^= 0xff;
        return copy;
      },
    ],
  ])(
    "refuses a %s archive and writes nothing",
    async (_kind, damage) => {
      const damaged = path.join(tempDir("backup-damaged"), "damaged.tar.gz");
      fs.writeFileSync(damaged, damage(fs.readFileSync(archive)));
      const fresh = tempDir("backup-untouched");
      const refused = await cli("restore", [damaged], { DATA_DIR: fresh });
      expect(refused.output).toMatch(/damaged\.tar\.gz is not a usable backup: .*Nothing was restored\./);
      expect(refused.output).not.toMatch(NO_STACK);
      expect(refused.code).toBe(1);
      expect(fs.readdirSync(fresh)).toEqual([]);
    },
    60_000,
  );

  it("refuses a backup from a newer version of the site", async () => {
    const work = tempDir("backup-newer");
    await tar.x({ file: archive, cwd: work });
    const manifest = JSON.parse(fs.readFileSync(path.join(work, "manifest.json"), "utf8")) as {
      schemaVersion: string;
      schemaVersionAt: number;
    };
    manifest.schemaVersion = "0099_from_the_future";
    manifest.schemaVersionAt = Date.now() + 86_400_000;
    fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest));
    // Without its signature, as an archive from before backups were signed: one altered under the
    // site's key is refused before its schema is read, even with --trust-unsigned.
    fs.rmSync(path.join(work, "manifest.sig"));
    const newer = path.join(tempDir("backup-newer-out"), "newer.tar.gz");
    await tar.c({ gzip: true, file: newer, cwd: work }, fs.readdirSync(work));
    const fresh = tempDir("backup-untouched");
    // Unsigned, it is restored only as trusted; the schema's check comes after.
    const refused = await cli("restore", [newer, "--trust-unsigned"], { DATA_DIR: fresh });
    expect(refused.output).toMatch(/This backup is from a newer version of the site \(schema 0099_from_the_future/);
    expect(refused.code).toBe(1);
    expect(fs.readdirSync(fresh)).toEqual([]);
  }, 60_000);

  it("prints its usage when asked, for backup and restore", async () => {
    for (const [script, usage] of [
      ["backup", "Usage: npm run backup [-- --out FILE.tar.gz|FOLDER]"],
      ["restore", "Usage: npm run restore -- FILE [--force] [--trust-unsigned]"],
    ] as const) {
      const help = await cli(script, ["--help"], { DATA_DIR: tempDir(`help-${script}`) });
      expect(help.output.trim()).toBe(usage);
      expect(help.code).toBe(0);
    }
  }, 60_000);

  it("refuses to back up a data directory that holds no database", async () => {
    const empty = tempDir("backup-nothing");
    const refused = await cli("backup", ["--out", path.join(empty, "x.tar.gz")], {
      DATA_DIR: path.join(empty, "typo"),
    });
    expect(refused.output).toMatch(/There is no database in DATA_DIR \(.*typo\): nothing to back up\./);
    expect(refused.code).toBe(1);
    expect(fs.readdirSync(empty)).toEqual([]);
  }, 60_000);

  it("backs up a database at the schema it has, without applying the code's newer migrations", async () => {
    // A database one migration behind the code, as after a `git pull` before the restart.
    const olderMigrations = tempDir("backup-older-migrations");
    fs.cpSync("drizzle", olderMigrations, { recursive: true });
    const journalFile = path.join(olderMigrations, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const newest = journal.entries.pop()!;
    const previous = journal.entries.at(-1)!;
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const dataDir = tempDir("backup-behind");
    const countMigrations = async () => {
      const handle = await openDatabase({ dataDir, migrationsDir: olderMigrations, migrate: false });
      try {
        const rows = await rawRows<{ n: number }>(
          handle.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        return rows[0]!.n;
      } finally {
        await handle.close();
      }
    };
    await (await openDatabase({ dataDir, migrationsDir: olderMigrations })).close();
    expect(await countMigrations()).toBe(journal.entries.length);

    const file = path.join(tempDir("backup-behind-out"), "behind.tar.gz");
    const backup = await cli("backup", ["--out", file], { DATA_DIR: dataDir });
    expect(backup.output).toContain(`schema ${previous.tag},`);
    expect(backup.output).not.toContain(newest.tag);
    expect(backup.code).toBe(0);
    expect(await countMigrations()).toBe(journal.entries.length);
  }, 120_000);

  it("says clearly when the backup cannot be written, and leaves nothing", async () => {
    const blocker = path.join(tempDir("backup-blocked"), "not-a-folder");
    fs.writeFileSync(blocker, "");
    const failed = await cli("backup", ["--out", path.join(blocker, "x.tar.gz")], { DATA_DIR: dataDir });
    expect(failed.output).toMatch(/Could not write the backup in .*not-a-folder/);
    expect(failed.output).not.toMatch(NO_STACK);
    expect(failed.code).toBe(1);
  }, 60_000);

  async function backupOntoSmallDisk(bytes: number, skip: () => void): Promise<void> {
    // A small filesystem; mounting one needs root, so elsewhere this is skipped.
    const small = tempDir("backup-full");
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", small], { stdio: "ignore" });
    } catch {
      skip();
    }
    try {
      const failed = await cli("backup", ["--out", path.join(small, "club.tar.gz")], { DATA_DIR: dataDir });
      expect(failed.output).toMatch(
        /Could not write the backup in .*: ENOSPC: no space left on device.*\. Nothing was kept\./,
      );
      expect(failed.output).not.toMatch(NO_STACK);
      expect(failed.code).toBe(1);
      expect(fs.readdirSync(small)).toEqual([]);
    } finally {
      execFileSync("umount", [small]);
    }
  }

  it("removes everything it wrote when the disk fills up", async (context) => {
    await backupOntoSmallDisk(32 * 1024, () => context.skip());
  }, 60_000);

  it("keeps serving when a scheduled backup cannot be written, and replaces a stale control socket", async () => {
    const blocker = path.join(tempDir("backup-blocked"), "not-a-folder");
    fs.writeFileSync(blocker, "");
    // Left behind by a server killed with SIGKILL.
    fs.writeFileSync(path.join(dataDir, "hopewell.sock"), "");
    const started = await startServer({
      DATA_DIR: dataDir,
      BACKUP_DIR: path.join(blocker, "backups"),
      BACKUP_EVERY: "1s",
    });
    try {
      await started.server.waitFor(/"msg":"scheduled backup failed"/, 60_000);
      expect(started.server.output()).toMatch(
        /"reason":"Could not write the backup in [^"]*not-a-folder[^"]*\. Nothing was kept\."/,
      );
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      const made = await cli("admin", ["set-role", "--email", "boss@example.org", "--role", "cast"], {
        DATA_DIR: dataDir,
      });
      expect(made.output).toContain("boss@example.org is now cast.");
      expect(made.code).toBe(0);
    } finally {
      await stopServer(started.server);
    }
  }, 120_000);
});

describe.runIf(PG_URL)("backups on PostgreSQL", () => {
  const made: string[] = [];
  let admin: pg.Client;
  async function newDatabase(): Promise<string> {
    const name = `hopewell_backup_${crypto.randomBytes(6).toString("hex")}`;
    await admin.query(`create database ${name}`);
    made.push(name);
    return withDatabaseName(PG_URL!, name);
  }
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("backs up a running site and restores it into a fresh database", async () => {
    const source = { dataDir: tempDir("pg-source"), databaseUrl: await newDatabase() };
    await makeClub(source.dataDir, source.databaseUrl);
    const { server } = await startServer({ DATA_DIR: source.dataDir, DATABASE_URL: source.databaseUrl });
    const archive = path.join(tempDir("pg-out"), "club.tar.gz");
    try {
      const created = await cli(
        "admin",
        [
          "create-user",
          "--email",
          "boss@example.org",
          "--password",
          "Choose#1877",
          "--first",
          "Ada",
          "--last",
          "Boss",
          "--role",
          "manager",
        ],
        {
          DATA_DIR: source.dataDir,
          DATABASE_URL: source.databaseUrl,
        },
      );
      expect(created.code).toBe(0);
      const written = await cli("backup", ["--out", archive], {
        DATA_DIR: source.dataDir,
        DATABASE_URL: source.databaseUrl,
      });
      expect(written.output).toMatch(/Backup written to/);
      expect(written.code).toBe(0);
    } finally {
      await stopServer(server);
    }
    const target = {
      dataDir: withBackupKeyOf(source.dataDir, tempDir("pg-restored")),
      databaseUrl: await newDatabase(),
    };
    const restored = await cli("restore", [archive], { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl });
    expect(restored.output).toMatch(/Restored .* into the PostgreSQL database/);
    expect(restored.code).toBe(0);
    await compare(source, target);

    const refused = await cli("restore", [archive], {
      DATA_DIR: withBackupKeyOf(source.dataDir, tempDir("pg-empty")),
      DATABASE_URL: source.databaseUrl,
    });
    expect(refused.output).toMatch(/The database is not empty/);
    expect(refused.code).toBe(1);
  }, 240_000);

  it("moves a club from the embedded database to PostgreSQL", async () => {
    const source = { dataDir: tempDir("pglite-source") };
    await makeClub(source.dataDir);
    const archive = path.join(tempDir("pglite-out"), "club.tar.gz");
    const written = await cli("backup", ["--out", archive], { DATA_DIR: source.dataDir });
    expect(written.code).toBe(0);
    const target = { dataDir: withBackupKeyOf(source.dataDir, tempDir("pg-moved")), databaseUrl: await newDatabase() };
    const restored = await cli("restore", [archive], { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl });
    expect(restored.code).toBe(0);
    await compare(source, target);
  }, 240_000);
});
