/**
 * Imports the old site's export (members with their passwords, events, applications,
 * characters, submissions, letters and research files) in one transaction:
 *
 *   npm run import -- DIR
 *
 * DIR holds auth_users.csv, one CSV per table and storage/research/<user id>/<file>.
 * Running it again changes nothing. While the site runs on the embedded database (which
 * only one process may open), the import is handed to the running server over its
 * control socket, as npm run admin does.
 */
import "./settings";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { askRunningServer } from "~/ops/control/control-socket.server";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { DataDirLockedError } from "~/platform/db/lock.server";
import { runImportCommand, type ImportOutcome } from "~/ops/import/run.server";
import { cliConfig, fail, failOn } from "./cli";

const USAGE = "Usage: npm run import -- DIR   (the folder of the old site's export: auth_users.csv, profiles.csv, ... and storage/research/)";

async function main() {
  let positionals: string[];
  try {
    positionals = parseArgs({ allowPositionals: true, strict: true }).positionals;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (positionals.length !== 1) fail(USAGE);
  // Absolute, for the running server whose working directory may differ.
  const dir = path.resolve(positionals[0]!);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(`${dir} is not a folder.\n${USAGE}`);
  const cfg = cliConfig();
  let outcome: ImportOutcome;
  try {
    setDatabase(await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir }));
    try {
      outcome = await runImportCommand(dir);
    } finally {
      await closeDatabase();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    outcome = await askRunningServer<ImportOutcome>(cfg.dataDir, "/import", { dir });
  }
  for (const line of outcome.out) console.log(line);
  for (const line of outcome.err) console.error(line);
  process.exit(outcome.code);
}

main().catch(failOn);
