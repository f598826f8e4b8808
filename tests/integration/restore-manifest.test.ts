import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as tar from "tar";
import { beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "~/ops/backup/dump.server";
import type { Manifest } from "~/ops/backup/format.server";
import { restoreBackup } from "~/ops/backup/restore.server";
import { BACKUP_KEY_FILE } from "~/ops/backup/signature.server";
import { DatabaseSettingError } from "~/platform/db/connect-errors.server";
import { overrideConfig } from "~/platform/config.server";
import { createProfile } from "~/platform/db/factories";
import { withTestDatabase } from "../helpers/db";
import { run } from "../helpers/processes";
import { withTempDirs } from "../helpers/temp-dirs";

/**
 * An archive that was changed, or whose manifest was, is refused with a message for the operator,
 * never a stack trace, and nothing is restored. Its signature finds a change whose checksums were
 * made again; the manifest's checks hold for an archive restored without one (--trust-unsigned).
 */
const db = withTestDatabase();
const NO_STACK = /\n\s+at /;
const tempDir = withTempDirs();
let archive = "";
let sourceDir = "";
let playerEmail = "";

beforeAll(async () => {
  sourceDir = tempDir("manifest-data");
  overrideConfig({ dataDir: sourceDir });
  playerEmail = (await createProfile(db(), { role: "player" })).email;
  archive = (await createBackup(db(), "pglite", path.join(tempDir("manifest-archive"), "club.tar.gz"))).file;
});
/** The archive, unpacked, changed by `change` (given the folder and its manifest) and packed again. */
async function changedArchive(change: (dir: string, manifest: Manifest) => void): Promise<string> {
  const work = tempDir("manifest-work");
  await tar.x({ file: archive, cwd: work });
  const manifest = JSON.parse(fs.readFileSync(path.join(work, "manifest.json"), "utf8")) as Manifest;
  change(work, manifest);
  fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest));
  const changed = path.join(tempDir("manifest-out"), "changed.tar.gz");
  await tar.c({ gzip: true, file: changed, cwd: work }, fs.readdirSync(work));
  return changed;
}

/** Restores `file` into a new DATA_DIR that holds the backup key of the site that made the archive (or `key`, or none). */
async function restore(file: string, options: { args?: string[]; key?: string | null } = {}) {
  const target = tempDir("manifest-target");
  const key = options.key === undefined ? fs.readFileSync(path.join(sourceDir, BACKUP_KEY_FILE), "utf8") : options.key;
  if (key !== null) fs.writeFileSync(path.join(target, BACKUP_KEY_FILE), key, { mode: 0o600 });
  const child = run(process.execPath, ["--import", "tsx", "scripts/restore.ts", file, ...(options.args ?? [])], {
    DATA_DIR: target,
    DATABASE_URL: "",
  });
  const { code } = await child.exited;
  // The command first says what it restores into (scripts/cli.ts); then its answer.
  const [database, dataDirectory, ...answer] = child.output().trim().split("\n");
  expect(database).toBe(
    `Database: the embedded database in ${path.join(target, "pgdata")} (DATABASE_URL unset, DATA_DIR from the environment)`,
  );
  expect(dataDirectory).toBe(`Data directory: ${target} (DATA_DIR from the environment)`);
  return {
    code,
    output: answer.join("\n"),
    target,
    left: fs.readdirSync(target).filter((name) => name !== BACKUP_KEY_FILE),
  };
}

/** The role the restored database gives the player. */
async function restoredRole(dataDir: string): Promise<string | undefined> {
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create({ dataDir: path.join(dataDir, "pgdata") });
  try {
    const { rows } = await client.query<{ role: string }>("select role from profiles where email = $1", [playerEmail]);
    return rows[0]?.role;
  } finally {
    await client.close();
  }
}

/** The player made a manager in the archive, and the table's checksum in the manifest made again to match. */
function playerMadeManager(dir: string, manifest: Manifest): void {
  const table = manifest.tables.find((candidate) => candidate.name === "public.profiles")!;
  const file = path.join(dir, table.file);
  const rows = fs.readFileSync(file, "utf8");
  const changed = rows
    .split("\n")
    .map((line) => (line.includes(`"${playerEmail}"`) ? line.replace('"role":"player"', '"role":"manager"') : line))
    .join("\n");
  expect(changed).not.toBe(rows);
  fs.writeFileSync(file, changed);
  table.sha256 = crypto.createHash("sha256").update(changed).digest("hex");
}

describe("restoring an archive that was changed after it was made", () => {
  it("refuses one whose checksums were made again, saying it was altered, even with --trust-unsigned, and restores nothing", async () => {
    const changed = await changedArchive(playerMadeManager);
    const altered = `${changed} cannot be trusted: its signature does not match its contents under this site's key: it was altered after it was made, and must not be restored. Nothing was restored.`;
    const refused = await restore(changed);
    expect(refused.output).toBe(altered);
    expect(refused.code).toBe(1);
    expect(refused.left).toEqual([]);
    // The flag is for archives that could not be checked, never for one found altered.
    const trusted = await restore(changed, { args: ["--trust-unsigned"] });
    expect(trusted.output).toBe(altered);
    expect(trusted.code).toBe(1);
    expect(trusted.left).toEqual([]);
  }, 60_000);

  it("refuses a signature file that is not one this site writes, even with --trust-unsigned", async () => {
    const forged = await changedArchive((dir) =>
      fs.writeFileSync(path.join(dir, "manifest.sig"), '{"algorithm":"none"}'),
    );
    const refused = await restore(forged, { args: ["--trust-unsigned"] });
    expect(refused.output).toBe(
      `${forged} cannot be trusted: its manifest.sig is not a signature this site makes: it was altered after it was made, and must not be restored. Nothing was restored.`,
    );
    expect(refused.code).toBe(1);
    expect(refused.left).toEqual([]);
  }, 60_000);

  it("restores the archive as it was made, the player still a player", async () => {
    const restored = await restore(archive);
    expect(restored.output).toMatch(/^Restored .*'s backup into the embedded database/);
    expect(restored.code).toBe(0);
    expect(await restoredRole(restored.target)).toBe("player");
  }, 60_000);

  it("refuses an archive without a signature unless the operator trusts it, and says so", async () => {
    const unsigned = await changedArchive((dir) => fs.rmSync(path.join(dir, "manifest.sig")));
    const refused = await restore(unsigned);
    expect(refused.output).toMatch(
      / cannot be trusted: it carries no signature \(it was made before backups were signed, or its signature was removed\)\. Nothing was restored\. .*add --trust-unsigned\.$/,
    );
    expect(refused.code).toBe(1);
    expect(refused.left).toEqual([]);
    const trusted = await restore(unsigned, { args: ["--trust-unsigned"] });
    expect(trusted.output).toMatch(
      /^Its signature was not checked \(--trust-unsigned\): it carries no signature .*\nRestored /,
    );
    expect(trusted.code).toBe(0);
    expect(await restoredRole(trusted.target)).toBe("player");
  }, 60_000);

  it("names the key when the archive was signed with another one, or there is none", async () => {
    const otherKey = `${crypto.randomBytes(32).toString("hex")}\n`;
    const other = await restore(archive, { key: otherKey });
    expect(other.output).toMatch(
      / cannot be trusted: it was signed with another key \([0-9a-f]{16}\) than this site's .*backup\.key \([0-9a-f]{16}\): copy there the backup\.key of the site that made it\. Nothing was restored\. .*add --trust-unsigned\.$/,
    );
    expect(other.code).toBe(1);
    expect(other.left).toEqual([]);
    const none = await restore(archive, { key: null });
    expect(none.output).toMatch(
      / cannot be trusted: there is no backup key at .*backup\.key to check its signature with.* add --trust-unsigned\.$/,
    );
    expect(none.code).toBe(1);
    expect(fs.readdirSync(none.target)).toEqual([]);
  }, 60_000);
});

describe("restoring into a PostgreSQL database that cannot be reached", () => {
  it("names the part of DATABASE_URL to check, as the site's start does, and restores nothing", async () => {
    const target = tempDir("manifest-pg-target");
    fs.copyFileSync(path.join(sourceDir, BACKUP_KEY_FILE), path.join(target, BACKUP_KEY_FILE));
    // Nothing listens on port 9.
    const refused = await restoreBackup({
      file: archive,
      databaseUrl: "postgres://hopewell:secret@127.0.0.1:9/hopewell",
      dataDir: target,
    }).catch((error: unknown) => error as Error);
    expect(refused).toBeInstanceOf(DatabaseSettingError);
    expect((refused as Error).message).toMatch(
      /^DATABASE_URL: nothing answers at 127\.0\.0\.1:9 \(connection refused\)\. Check the host and port in DATABASE_URL/,
    );
    expect((refused as Error).message).not.toContain("secret");
    expect(fs.readdirSync(target)).toEqual([BACKUP_KEY_FILE]);
  }, 60_000);
});

describe("restoring an archive whose manifest was changed", () => {
  it("refuses a table the site's schema does not have, naming it", async () => {
    const changed = await changedArchive((dir, manifest) => {
      const rows = '{"id":1,"email":"intruder@example.org"}\n';
      fs.writeFileSync(path.join(dir, "db", "public.secret_admins.jsonl"), rows);
      manifest.tables.push({
        name: "public.secret_admins",
        rows: 1,
        file: "db/public.secret_admins.jsonl",
        sha256: crypto.createHash("sha256").update(rows).digest("hex"),
      });
      fs.rmSync(path.join(dir, "manifest.sig"));
    });
    // Past the signature (an archive from before backups were signed), the schema still refuses it.
    const refused = await restore(changed, { args: ["--trust-unsigned"] });
    expect(refused.output).toMatch(
      /This backup holds a table the site's schema at \d{4}_\w+ does not have \(public\.secret_admins\): it was not written by this site, or it was changed since\. Nothing was restored\.$/,
    );
    expect(refused.output).not.toMatch(NO_STACK);
    expect(refused.code).toBe(1);
    // No half-made database is left behind.
    expect(refused.left).toEqual([]);
  }, 120_000);

  it.each([
    [
      "a table without a name",
      (manifest: Manifest) => delete (manifest.tables[0] as Partial<Manifest["tables"][number]>).name,
    ],
    [
      "a table named with SQL in it",
      (manifest: Manifest) => (manifest.tables[0]!.name = 'public.profiles"; drop table profiles; --'),
    ],
    [
      "a row count that is not a number",
      (manifest: Manifest) => ((manifest.tables[0] as unknown as { rows: string }).rows = "12"),
    ],
    ["no list of files", (manifest: Manifest) => delete (manifest as Partial<Manifest>).files],
  ])(
    "refuses a manifest with %s",
    async (_what, change) => {
      const changed = await changedArchive((_dir, manifest) => change(manifest));
      const refused = await restore(changed);
      expect(refused.output).toBe(
        `${changed} is not a usable backup: its manifest is not a Hopewell backup manifest. Nothing was restored.`,
      );
      expect(refused.code).toBe(1);
      expect(refused.left).toEqual([]);
    },
    60_000,
  );
});
