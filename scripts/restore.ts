/**
 * Restores a backup archive into an empty data directory (DATA_DIR) or an empty database
 * (DATABASE_URL):
 *
 *   npm run restore -- FILE [--force] [--trust-unsigned]
 *
 * --force replaces whatever the target holds. --trust-unsigned restores an archive whose signature
 * could not be checked (one from before backups were signed, or another key's); one altered after it
 * was signed is refused all the same. The site must be stopped on the embedded database.
 */
import "./settings";
import { parseArgs } from "node:util";
import { restoreBackup } from "~/ops/backup/restore.server";
import { cliConfig, fail, failOn } from "./cli";

const USAGE = "Usage: npm run restore -- FILE [--force] [--trust-unsigned]";

async function main() {
  let parsed: { values: { force?: boolean; "trust-unsigned"?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      options: { force: { type: "boolean" }, "trust-unsigned": { type: "boolean" }, help: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return;
  }
  if (parsed.positionals.length !== 1) fail(USAGE);
  const cfg = cliConfig();
  const result = await restoreBackup({
    file: parsed.positionals[0]!,
    databaseUrl: cfg.databaseUrl,
    dataDir: cfg.dataDir,
    force: parsed.values.force,
    trustUnsigned: parsed.values["trust-unsigned"],
  });
  if (result.unchecked) console.log(`Its signature was not checked (--trust-unsigned): ${result.unchecked}.`);
  const where = cfg.databaseUrl ? "the PostgreSQL database" : `the embedded database in ${cfg.dataDir}`;
  console.log(
    `Restored ${result.manifest.createdAt}'s backup into ${where}: schema ${result.manifest.schemaVersion}, ${result.rows} rows, ${result.files} files, in ${(result.ms / 1000).toFixed(1)} s. Newer migrations, if any, run when the site starts.`,
  );
}

main().catch(failOn);
