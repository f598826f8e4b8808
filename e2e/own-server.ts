import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { E2E_SERVER_ENV } from "../playwright.config";
import { freePort } from "../tests/helpers/ports";
import { createMember, type E2eMember } from "./helpers";

/**
 * A production server of a spec's own, for what neither of the run's two servers can be (passkeys
 * need a host name, where both answer on 127.0.0.1, and a database the test can read beside the
 * server): the build's server.mjs on a fresh data directory, with its members then made by the
 * admin command, as an operator would. What only needs other settings belongs on the second
 * server (E2E_SERVICES_SERVER in playwright.config.ts), which starts once for the run.
 */
export type OwnServer = { site: string; stop: () => Promise<void> };

export type OwnMember = E2eMember;

/** Waits until `url` answers 200, polling: a server just started is not listening at once. */
export async function waitForAnswer(url: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts the server with `env` added to the e2e settings, then makes `members`. `host` is the
 * name the browser uses: "localhost" where a passkey needs a host name (an address is no
 * relying party), 127.0.0.1 otherwise.
 */
export async function startOwnServer({
  name,
  env: extraEnv,
  members,
  host = "127.0.0.1",
}: {
  name: string;
  env: Record<string, string>;
  members: OwnMember[];
  host?: "127.0.0.1" | "localhost";
}): Promise<OwnServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-${name}-`));
  const port = await freePort();
  const site = `http://${host}:${port}`;
  const env = {
    ...process.env,
    ...E2E_SERVER_ENV,
    PORT: String(port),
    // localhost may be ::1 or 127.0.0.1 to the browser: the server then listens on both.
    ...(host === "127.0.0.1" ? { HOST: host } : {}),
    DATA_DIR: path.join(dir, "data"),
    APP_URL: site,
    ...extraEnv,
  };
  let output = "";
  const app: ChildProcess = spawn(process.execPath, ["server.mjs"], { env, stdio: "pipe" });
  app.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  app.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

  async function stop() {
    if (app.exitCode === null && app.signalCode === null) {
      const exited = new Promise((resolve) => app.once("exit", resolve));
      app.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }

  try {
    await waitForAnswer(`${site}/healthz`);
    for (const member of members)
      await createMember(member, { dataDir: env.DATA_DIR, databaseUrl: extraEnv.DATABASE_URL });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  return { site, stop };
}
