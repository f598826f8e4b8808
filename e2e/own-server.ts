import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/helpers/ports";

/**
 * A production server of a spec's own, for what the shared e2e server is not configured for
 * (an SMS gateway, Discord): the build's server.mjs on a fresh data directory, with its members
 * made first by the admin command, as an operator would.
 */
export type OwnServer = { site: string; stop: () => Promise<void> };

export type OwnMember = { email: string; password: string; first: string; last: string; role: "player" | "manager" };

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

/** Starts the server with `env` added to the production settings, once `members` are made. */
export async function startOwnServer({ name, env: extraEnv, members }: { name: string; env: Record<string, string>; members: OwnMember[] }): Promise<OwnServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-${name}-`));
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(dir, "data"),
    APP_URL: site,
    LOG_LEVEL: "warn",
    ...extraEnv,
  };
  for (const member of members) {
    const { email, password, first, last, role } = member;
    execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "create-user", "--email", email, "--password", password, "--first", first, "--last", last, "--role", role], { env, stdio: "pipe" });
  }
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
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { site, stop };
}
