import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort } from "../helpers/ports";
import { run } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { withTempDirs } from "../helpers/temp-dirs";

/**
 * A developer's checkout often has a .env naming a real database (their club's). The servers and
 * commands the tests start run from the checkout, so they must not read it: the test suite sets
 * HOPEWELL_ENV_FILE=none (vitest.config.ts, playwright.config.ts), which server.mjs and every
 * command honour. Here the checkout is a copy (its code linked) with such a .env, so this one's
 * files are left alone.
 */
withProductionBuild();
const tempDir = withTempDirs();
// Nothing listens on port 9: a command or server that took this address would say so, or fail.
const BOGUS_URL = "postgres://club:secret@127.0.0.1:9/the_clubs_own";

function checkoutWithDotEnv(dotEnv: string): string {
  const site = tempDir("env-file");
  for (const entry of [
    "app",
    "scripts",
    "drizzle",
    "node_modules",
    "build",
    "server.mjs",
    "tsconfig.json",
    "package.json",
  ]) {
    fs.symlinkSync(path.resolve(entry), path.join(site, entry));
  }
  fs.writeFileSync(path.join(site, ".env"), dotEnv);
  return site;
}

describe("a .env in the checkout, with the tests' settings", () => {
  it("does not reach a command the tests start, which reads it without the switch", async () => {
    const site = checkoutWithDotEnv(`DATABASE_URL=${BOGUS_URL}\n`);
    const restore = (options: { unset: string[] }) => {
      const child = run(
        process.execPath,
        ["--import", "tsx", "scripts/restore.ts", "no-such-backup.tar.gz"],
        { DATA_DIR: tempDir("env-file-data") },
        { cwd: site, ...options },
      );
      return child.exited.then(() => child.output());
    };
    // As every test starts a command: with the suite's environment, HOPEWELL_ENV_FILE=none in it.
    expect(process.env.HOPEWELL_ENV_FILE).toBe("none");
    const asTheTestsRunIt = await restore({ unset: ["DATABASE_URL"] });
    expect(asTheTestsRunIt).toMatch(
      /^Database: the embedded database in .* \(DATABASE_URL unset, DATA_DIR from the environment\)$/m,
    );
    expect(asTheTestsRunIt).toContain("No backup file at");
    expect(asTheTestsRunIt).not.toContain("the_clubs_own");
    // The same command without the switch reads the file, as an operator's does.
    const asAnOperatorRunsIt = await restore({ unset: ["DATABASE_URL", "HOPEWELL_ENV_FILE"] });
    expect(asAnOperatorRunsIt).toMatch(
      /^Database: PostgreSQL database "the_clubs_own" on 127\.0\.0\.1:9, user club \(DATABASE_URL from \.env\)$/m,
    );
  }, 60_000);

  it("does not reach a server the tests start: it serves from its own data directory", async () => {
    const site = checkoutWithDotEnv(`DATABASE_URL=${BOGUS_URL}\n`);
    const dataDir = unpackMigratedDatabase(tempDir("env-file-server"));
    const port = await freePort();
    const { child, output, waitFor, exited } = run(
      process.execPath,
      ["server.mjs"],
      { NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: "3000" },
      { cwd: site, unset: ["DATABASE_URL"] },
    );
    try {
      await waitFor(new RegExp(`running at http://localhost:${port}`), 90_000);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(true);
      expect(output()).not.toContain("the_clubs_own");
      child.kill("SIGTERM");
      expect((await exited).code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);

  it("names a settings file HOPEWELL_ENV_FILE gives that is not there, and does not start", async () => {
    const site = checkoutWithDotEnv("");
    const child = run(
      process.execPath,
      ["server.mjs"],
      { NODE_ENV: "production", HOPEWELL_ENV_FILE: "/etc/hopewell/missing.env" },
      { cwd: site },
    );
    const { code } = await child.exited;
    expect(child.output().trim()).toBe(
      "HOPEWELL_ENV_FILE names /etc/hopewell/missing.env, which does not exist: give the settings file's path, or none to read no file.",
    );
    expect(code).toBe(1);
  }, 30_000);
});
