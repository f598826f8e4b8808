/**
 * The settings of every command (npm run admin, backup, restore, import, seed:demo), read as the
 * server reads them (server.mjs, both through launch/env-file.mjs): a .env file in the working
 * directory (or HOPEWELL_ENV_FILE's, or none), with variables set in the environment winning over
 * it. Imported first by each command, so that every module after it (the logger reads LOG_LEVEL
 * as it loads) sees the same settings the site runs with.
 */
import { loadSettingsFile } from "./launch/env-file.mjs";

const before = new Set(Object.keys(process.env));
const file = loadSettingsFile();
process.env.NODE_ENV ??= "production";

/** Where a setting's value came from, for the line each command prints about its database. */
export function settingSource(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.trim() === "") return "default";
  return before.has(name) ? "from the environment" : `from ${file}`;
}
