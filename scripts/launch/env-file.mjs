// The settings file the server (server.mjs, npm run dev) and every command (scripts/settings.ts)
// read: `.env` in the working directory, or the file HOPEWELL_ENV_FILE names, or none when it is
// `none`. The test suite sets `none` for everything it starts, so that a developer's own .env (a
// DATABASE_URL to their club's database) never reaches a test's server or command.
import fs from "node:fs";

/** Read before any settings are (so it cannot itself be in the file): README's table lists it. */
export const ENV_FILE_VARIABLE = "HOPEWELL_ENV_FILE";

/**
 * Loads the settings file into process.env, variables set in the environment winning over it, and
 * returns its name, or undefined when none was read. A file named by HOPEWELL_ENV_FILE that is not
 * there stops the process with a message: settings silently missing would start the site on defaults.
 */
export function loadSettingsFile() {
  const named = process.env[ENV_FILE_VARIABLE]?.trim();
  if (named === "none") return undefined;
  const file = named || ".env";
  if (!fs.existsSync(file)) {
    if (!named) return undefined;
    console.error(
      `${ENV_FILE_VARIABLE} names ${file}, which does not exist: give the settings file's path, or none to read no file.`,
    );
    process.exit(1);
  }
  process.loadEnvFile(file);
  return file;
}
