/**
 * Imports the old site's export (members with their passwords, events, applications,
 * characters, submissions, letters and research files) in one transaction:
 *
 *   npm run import -- DIR
 *   npm run import -- --check DIR   reads and checks every file, reports what the import would do, changes nothing
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

const USAGE =
  "Usage: npm run import -- [--check] DIR   (the folder of the old site's export: auth_users.csv, profiles.csv, ... and storage/research/; --check changes nothing)";

async function main() {
  let positionals: string[];
  let check: boolean;
  try {
    const parsed = parseArgs({
      options: { check: { type: "boolean", default: false } },
      allowPositionals: true,
      strict: true,
    });
    positionals = parsed.positionals;
    check = parsed.values.check;
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
      outcome = await runImportCommand(dir, { check });
    } finally {
      await closeDatabase();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    outcome = await askRunningServer<ImportOutcome>(cfg.dataDir, "/import", { dir, check });
  }
  for (const line of outcome.out) console.log(line);
  for (const line of outcome.err) console.error(line);
  process.exit(outcome.code);
}

main().catch(failOn);
