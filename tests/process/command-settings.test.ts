import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDatabaseName } from "../helpers/database-urls";
import { run } from "../helpers/processes";
import { withTempDirs } from "../helpers/temp-dirs";
import { sampleExport, writeExport } from "../fixtures/old-export";

/**
 * The commands an operator runs beside the site (npm run admin, import, backup) read the
 * site's settings as the server does: from .env in the folder they run in, with nothing in the
 * environment. A volunteer's site on PostgreSQL, with DATABASE_URL written only in .env and an
 * embedded database left in ./data from a first try without it, must get its manager, its import
 * and its backup in PostgreSQL, and each command must say so.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const tempDir = withTempDirs();
// HOPEWELL_ENV_FILE too: the test suite sets it to read no .env (vitest.config.ts); these read one.
const SETTINGS = ["DATABASE_URL", "DATA_DIR", "BACKUP_DIR", "NODE_ENV", "LOG_LEVEL", "HOPEWELL_ENV_FILE"];

/** A folder laid out like a checkout of the site (its code linked from this one), with `.env`. */
function siteWithDotEnv(dotEnv: string): string {
  const site = tempDir("site");
  for (const entry of ["app", "scripts", "drizzle", "node_modules", "tsconfig.json", "package.json"]) {
    fs.symlinkSync(path.resolve(entry), path.join(site, entry));
  }
  fs.writeFileSync(path.join(site, ".env"), dotEnv);
  return site;
}

async function npmRun(site: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const child = run("npm", ["run", "--silent", ...args], {}, { cwd: site, unset: SETTINGS });
  const { code } = await child.exited;
  return { code, output: child.output() };
}

describe.skipIf(!PG_URL)("commands with DATABASE_URL set only in .env (PostgreSQL)", () => {
  // A role and database made as the guide makes them ("PostgreSQL: the role and the database"):
  // the role owns the database and its public schema, and is no superuser.
  const name = `hopewell_cmds_${crypto.randomBytes(5).toString("hex")}`;
  let admin: pg.Client;
  let url: string;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create role ${name} login password 'Lantern1877'`);
    await admin.query(`create database ${name} owner ${name}`);
    const inDatabase = new pg.Client({ connectionString: withDatabaseName(PG_URL!, name) });
    await inDatabase.connect();
    await inDatabase.query(`alter schema public owner to ${name}`);
    await inDatabase.end();
    const site = new URL(withDatabaseName(PG_URL!, name));
    site.username = name;
    site.password = "Lantern1877";
    url = site.toString();
  });
  afterAll(async () => {
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.query(`drop role if exists ${name}`);
    await admin?.end();
  });

  it("admin, import, backup and restore work on PostgreSQL, each saying which database and warning of the embedded one beside it", async () => {
    const site = siteWithDotEnv(
      `# copied from .env.example\nDATABASE_URL=${url}\nMAIL_FROM="Hopewell <no-reply@hopewell.local>"\n`,
    );
    // What the issue found: an embedded database left in ./data by a first start without DATABASE_URL.
    fs.mkdirSync(path.join(site, "data", "pgdata"), { recursive: true });
    fs.writeFileSync(path.join(site, "data", "pgdata", "PG_VERSION"), "17\n");
    const said = `Database: PostgreSQL database "${name}" on ${new URL(url).hostname}:${new URL(url).port || "5432"}, user ${name} (DATABASE_URL from .env)`;
    const warning = `Warning: DATA_DIR (${fs.realpathSync(site)}/data) also holds an embedded database, which is not used while DATABASE_URL is set`;

    const created = await npmRun(site, [
      "admin",
      "--",
      "create-user",
      "--email",
      "cass@club.test",
      "--password",
      "Choose#1877",
      "--first",
      "Cass",
      "--last",
      "Reed",
      "--role",
      "cast",
    ]);
    expect(created.output).toContain(said);
    expect(created.output).toContain("(DATABASE_URL from .env)");
    expect(created.output).toContain(warning);
    expect(created.output).toContain("Created cass@club.test (cast).");
    expect(created.output, "the password in DATABASE_URL is never printed").not.toContain("Lantern1877");
    expect(created.code).toBe(0);
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      expect((await check.query("select role from profiles where email = 'cass@club.test'")).rows).toEqual([
        { role: "cast" },
      ]);

      const exportDir = writeExport(path.join(tempDir("export"), "old-export"), sampleExport());
      const imported = await npmRun(site, ["import", "--", exportDir]);
      expect(imported.output).toContain(said);
      expect(imported.code, imported.output).toBe(0);
      const members = Number((await check.query("select count(*) from profiles")).rows[0].count);
      expect(members).toBeGreaterThan(1);

      const archive = path.join(tempDir("backups"), "club.tar.gz");
      const backedUp = await npmRun(site, ["backup", "--", "--out", archive]);
      expect(backedUp.output).toContain(said);
      expect(backedUp.code, backedUp.output).toBe(0);
      let manifest = "";
      await tar.t({
        file: archive,
        onReadEntry: (entry) =>
          entry.path === "manifest.json"
            ? entry.on("data", (chunk: Buffer) => (manifest += chunk.toString()))
            : entry.resume(),
      });
      const parsed = JSON.parse(manifest) as { database: string; tables: { name: string; rows: number }[] };
      expect(parsed.database).toBe("postgres");
      expect(parsed.tables.find((table) => table.name === "public.profiles")?.rows).toBe(members);

      // The guide's restore, with the role's own rights: the whole database is replaced by the archive.
      await check.query("delete from profiles where email = 'cass@club.test'");
      const restored = await npmRun(site, ["restore", "--", archive, "--force"]);
      expect(restored.output).toContain(said);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toMatch(/Restored .*'s backup into the PostgreSQL database/);
      expect((await check.query("select role from profiles where email = 'cass@club.test'")).rows).toEqual([
        { role: "cast" },
      ]);
    } finally {
      await check.end();
    }
  }, 120_000);
});
