import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { postgresAnswers, withDatabaseName } from "../helpers/database-urls";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort } from "../helpers/ports";
import { run } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/** What an operator sees after a mistake in the settings: a plain message, no stack trace, nothing left behind. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
const STACK_LINE = /^\s+at /m;

async function failedStart(env: Record<string, string>) {
  const server = run(process.execPath, ["server.mjs"], { NODE_ENV: "production", ...env });
  const { code } = await server.exited;
  return { code, output: server.output() };
}

describe("mistakes in the server's settings", () => {
  it("names LOG_LEVEL when its value is not a level", async () => {
    const dataDir = tempDir("hopewell-loglevel-");
    const { code, output } = await failedStart({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      LOG_LEVEL: "verbose",
    });
    expect(code).toBe(1);
    expect(output).toMatch(/Invalid configuration:\n\s+- LOG_LEVEL:/);
    expect(output).not.toMatch(STACK_LINE);
  });

  it("refuses the test suite's cheap CAPTCHA, so no production site ever asks bots for less work", async () => {
    const dataDir = tempDir("hopewell-captcha-work-");
    const { code, output } = await failedStart({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      CAPTCHA_TEST_WORK: "5",
    });
    expect(code).toBe(1);
    expect(output).toMatch(/Invalid configuration:\n\s+- CAPTCHA_TEST_WORK: is for the test suite only/);
    expect(output).not.toMatch(STACK_LINE);
    expect(fs.readdirSync(dataDir), "nothing opened").toEqual([]);
  });

  it("names HOST when it is not an address of this machine, before opening the database", async () => {
    for (const host of ["no-such-host.invalid", "192.0.2.77"]) {
      const dataDir = tempDir("hopewell-host-");
      const { code, output } = await failedStart({ DATA_DIR: dataDir, PORT: String(await freePort()), HOST: host });
      expect(code, host).toBe(1);
      expect(output).toMatch(new RegExp(`Invalid configuration:\\n\\s+- HOST: "${host.replace(/\./g, "\\.")}" is not`));
      expect(output).not.toMatch(STACK_LINE);
      expect(fs.readdirSync(dataDir), "nothing opened, no lock left").toEqual([]);
    }
  }, 60_000);

  it("names PORT when another server holds it, leaving no lock", async () => {
    const dataDir = tempDir("hopewell-port-");
    const holder = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    try {
      const { code, output } = await failedStart({ DATA_DIR: dataDir, PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(`PORT: ${port} is already in use`);
      expect(output).not.toMatch(STACK_LINE);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      holder.close();
    }
  });

  it("names DATABASE_URL and what to check when nothing answers at its host and port", async () => {
    const dataDir = tempDir("hopewell-pg-port-");
    // A port nothing listens on, as when 5433 was typed for 5432.
    const port = await freePort();
    const { code, output } = await failedStart({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://hopewell:secret@127.0.0.1:${port}/hopewell`,
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `Hopewell could not start: DATABASE_URL: nothing answers at 127.0.0.1:${port} (connection refused). Check the host and port in DATABASE_URL (PostgreSQL listens on 5432 unless told otherwise) and that PostgreSQL runs there (systemctl status postgresql).`,
    );
    expect(output).not.toContain("secret");
    expect(output).not.toMatch(STACK_LINE);
  });

  const pgUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  it("names DATABASE_URL and how to create the database when the one it names does not exist", async (context) => {
    if (!(await postgresAnswers(pgUrl))) return context.skip(`needs PostgreSQL at ${pgUrl} (TEST_DATABASE_URL)`);
    const dataDir = tempDir("hopewell-pg-name-");
    const url = new URL(withDatabaseName(pgUrl, "hopewell_no_such_site"));
    const { code, output } = await failedStart({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DATABASE_URL: url.toString(),
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `Hopewell could not start: DATABASE_URL names the database "hopewell_no_such_site", which does not exist on ${url.hostname}:${url.port || "5432"}. Create it, owned by the site's role (sudo -u postgres createdb -O ${url.username} hopewell_no_such_site), or correct the database's name at the end of DATABASE_URL.`,
    );
    expect(output).not.toMatch(STACK_LINE);
  });

  it("reads settings from a .env file in the working directory, with the environment winning", async () => {
    // A working directory of its own, so this checkout's files are left alone.
    const site = tempDir("hopewell-dotenv-");
    for (const entry of ["build", "drizzle"]) fs.symlinkSync(path.resolve(entry), path.join(site, entry));
    // The database the .env file points at is there already: this is about reading the file, not a first start.
    unpackMigratedDatabase(path.join(site, "from-dotenv"));
    const port = await freePort();
    fs.writeFileSync(
      path.join(site, ".env"),
      `# copied from .env.example\nPORT=${port}\nDATA_DIR=./from-dotenv\nSHUTDOWN_TIMEOUT_MS=eleven\n`,
    );
    const saved = { PORT: process.env.PORT, DATA_DIR: process.env.DATA_DIR };
    delete process.env.PORT;
    delete process.env.DATA_DIR;
    const { child, waitFor, exited } = run(
      process.execPath,
      [path.resolve("server.mjs")],
      { NODE_ENV: "production", SHUTDOWN_TIMEOUT_MS: "3000" },
      { cwd: site, unset: ["HOPEWELL_ENV_FILE"] },
    );
    try {
      await waitFor(new RegExp(`running at http://localhost:${port}`), 90_000);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(fs.existsSync(path.join(site, "from-dotenv", "hopewell.lock"))).toBe(true);
      child.kill("SIGTERM");
      expect((await exited).code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      Object.assign(process.env, saved);
      for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key];
    }
  }, 120_000);
});
