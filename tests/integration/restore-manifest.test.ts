import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as tar from "tar";
import { beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "~/ops/backup/dump.server";
import type { Manifest } from "~/ops/backup/format.server";
import { overrideConfig } from "~/platform/config.server";
import { withTestDatabase } from "../helpers/db";
import { run } from "../helpers/processes";
import { withTempDirs } from "../helpers/temp-dirs";

/** An archive whose manifest was changed is refused with a message for the operator, never a stack trace, and nothing is restored. */
const db = withTestDatabase();
const NO_STACK = /\n\s+at /;
const tempDir = withTempDirs();
let archive = "";

beforeAll(async () => {
  overrideConfig({ dataDir: tempDir("manifest-data") });
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

async function restore(file: string) {
  const target = tempDir("manifest-target");
  const child = run(process.execPath, ["--import", "tsx", "scripts/restore.ts", file], { DATA_DIR: target, DATABASE_URL: "" });
  const { code } = await child.exited;
  // The command first says what it restores into (scripts/cli.ts); then its answer.
  const [database, dataDirectory, ...answer] = child.output().trim().split("\n");
  expect(database).toBe(`Database: the embedded database in ${path.join(target, "pgdata")} (DATABASE_URL unset, DATA_DIR from the environment)`);
  expect(dataDirectory).toBe(`Data directory: ${target} (DATA_DIR from the environment)`);
  return { code, output: answer.join("\n"), target };
}

describe("restoring an archive whose manifest was changed", () => {
  it("refuses a table the site's schema does not have, naming it", async () => {
    const changed = await changedArchive((dir, manifest) => {
      const rows = '{"id":1,"email":"intruder@example.org"}\n';
      fs.writeFileSync(path.join(dir, "db", "public.secret_admins.jsonl"), rows);
      manifest.tables.push({ name: "public.secret_admins", rows: 1, file: "db/public.secret_admins.jsonl", sha256: crypto.createHash("sha256").update(rows).digest("hex") });
    });
    const refused = await restore(changed);
    expect(refused.output).toMatch(
      /^This backup holds a table the site's schema at \d{4}_\w+ does not have \(public\.secret_admins\): it was not written by this site, or it was changed since\. Nothing was restored\.$/,
    );
    expect(refused.output).not.toMatch(NO_STACK);
    expect(refused.code).toBe(1);
    // No half-made database is left behind.
    expect(fs.readdirSync(refused.target)).toEqual([]);
  }, 120_000);

  it.each([
    ["a table without a name", (manifest: Manifest) => delete (manifest.tables[0] as Partial<Manifest["tables"][number]>).name],
    ["a table named with SQL in it", (manifest: Manifest) => (manifest.tables[0]!.name = 'public.profiles"; drop table profiles; --')],
    ["a row count that is not a number", (manifest: Manifest) => ((manifest.tables[0] as unknown as { rows: string }).rows = "12")],
    ["no list of files", (manifest: Manifest) => delete (manifest as Partial<Manifest>).files],
  ])("refuses a manifest with %s", async (_what, change) => {
    const changed = await changedArchive((_dir, manifest) => change(manifest));
    const refused = await restore(changed);
    expect(refused.output).toBe(`${changed} is not a usable backup: its manifest is not a Hopewell backup manifest. Nothing was restored.`);
    expect(refused.code).toBe(1);
    expect(fs.readdirSync(refused.target)).toEqual([]);
  }, 60_000);
});
