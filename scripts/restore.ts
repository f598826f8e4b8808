/**
 * Restores a backup archive into an empty data directory (DATA_DIR) or an empty database
 * (DATABASE_URL):
 *
 *   npm run restore -- FILE [--force]
 *
 * --force replaces whatever the target holds. The site must be stopped on the embedded database.
 */
import "./settings";
import { parseArgs } from "node:util";
import { restoreBackup } from "~/ops/backup/restore.server";
import { cliConfig, fail, failOn } from "./cli";

const USAGE = "Usage: npm run restore -- FILE [--force]";

async function main() {
  let parsed: { values: { force?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ options: { force: { type: "boolean" } }, allowPositionals: true, strict: true });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (parsed.positionals.length !== 1) fail(USAGE);
  const cfg = cliConfig();
  const result = await restoreBackup({ file: parsed.positionals[0]!, databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, force: parsed.values.force });
  const where = cfg.databaseUrl ? "the PostgreSQL database" : `the embedded database in ${cfg.dataDir}`;
  console.log(
    `Restored ${result.manifest.createdAt}'s backup into ${where}: schema ${result.manifest.schemaVersion}, ${result.rows} rows, ${result.files} files, in ${(result.ms / 1000).toFixed(1)} s. Newer migrations, if any, run when the site starts.`,
  );
}

main().catch(failOn);
