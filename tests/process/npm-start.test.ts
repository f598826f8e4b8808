import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processIsAlive } from "~/platform/processes.server";
import { MESSAGES } from "~/web/forms/messages";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort, portIsClosed } from "../helpers/ports";
import { run, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// npm start would otherwise rebuild build/ in place while other test files serve it.
withProductionBuild();

/**
 * The README's start command, as a supervisor runs it: the PID it signals is npm's.
 * The build is brought up to date first (as other test files share it), so `npm start`
 * finds an up-to-date build and serves it.
 */
const dirs: string[] = [];
const running: RunningProcess[] = [];
/** Server processes started under npm: a failing test must not leave one behind. */
const servers: number[] = [];
afterEach(() => {
  for (const proc of running.splice(0)) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
  for (const pid of servers.splice(0)) if (processIsAlive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A form post whose body arrives in two halves; the second is sent when `finish` is called. */
function slowPost(port: number, body: string) {
  let finish!: () => void;
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        port,
        host: "127.0.0.1",
        method: "POST",
        path: "/auth",
        headers: {
          Origin: `http://127.0.0.1:${port}`,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    request.on("error", reject);
    const half = Math.floor(body.length / 2);
    request.write(body.slice(0, half));
    finish = () => request.end(body.slice(half));
  });
  return { response, finish: () => finish() };
}

describe("npm start under a supervisor", () => {
  it("passes SIGTERM sent to npm's own PID to the server, which finishes the request in flight, closes the database and exits", async () => {
    // A data directory in use already: this is about stopping, not a first start (the next tests start on empty ones).
    const dataDir = unpackMigratedDatabase(tempDir("hopewell-npm-start-"));
    const port = await freePort();
    const npm = run("npm", ["start"], {
      DATA_DIR: dataDir,
      PORT: String(port),
      SHUTDOWN_TIMEOUT_MS: "8000",
      NODE_ENV: "production",
      LOG_LEVEL: "info",
    });
    running.push(npm);
    await npm.waitFor(/running at http:\/\/localhost:\d+/, 90_000);
    expect(npm.output()).toContain("The build is up to date");
    // Started for production without APP_URL: the log says what the emailed links will name.
    expect(npm.output()).toContain("APP_URL is not set: the links the site emails");
    // It names the version it runs: the commit the build was made from, and Node.js's version.
    const commit = execFileSync("git", ["log", "-1", "--format=%h"], { encoding: "utf8" }).trim();
    expect(npm.output()).toMatch(
      new RegExp(
        `running at http://localhost:${port} \\(version ${commit} of \\d{4}-\\d{2}-\\d{2}( with changes not committed)?, Node\\.js ${process.versions.node}\\)`,
      ),
    );
    const serverPid = Number(/"pid":(\d+)/.exec(npm.output())![1]);
    servers.push(serverPid);
    expect(fs.readFileSync(path.join(dataDir, "hopewell.lock"), "utf8")).toBe(String(serverPid));
    // The C library's setting that keeps idle memory down reaches the server (docs/decisions/0026-memory-given-back.md).
    expect(fs.readFileSync(`/proc/${serverPid}/environ`, "utf8").split("\0")).toContain(
      "MALLOC_MMAP_THRESHOLD_=131072",
    );
    // So does the single background thread for V8's compilers (docs/decisions/0031-one-compiler-thread.md).
    expect(fs.readFileSync(`/proc/${serverPid}/cmdline`, "utf8").split("\0")).toContain("--v8-pool-size=1");

    const slow = slowPost(
      port,
      new URLSearchParams({ intent: "signin", email: "someone@example.com", password: "Lantern#1877" }).toString(),
    );
    // The request's headers have reached the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalledAt = performance.now();
    process.kill(npm.child.pid!, "SIGTERM");
    await npm.waitFor(/shutting down: finishing requests in flight/, 10_000);
    // Still mid-request: the server waits for it rather than dying.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processIsAlive(serverPid)).toBe(true);
    slow.finish();
    const answer = await slow.response;
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(MESSAGES.captcha);

    const { code } = await npm.exited;
    expect(performance.now() - signalledAt).toBeLessThan(8_000 + 2_000);
    expect(code).toBe(0);
    expect(npm.output()).toMatch(/"msg":"database closed"/);
    expect(processIsAlive(serverPid)).toBe(false);
    expect(await portIsClosed(port)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(false);
  }, 150_000);

  it("stops cleanly when signalled while the database is still opening", async () => {
    const dataDir = tempDir("hopewell-npm-early-");
    const npm = run("npm", ["start"], {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      NODE_ENV: "production",
      LOG_LEVEL: "info",
    });
    running.push(npm);
    // The lock is taken as the embedded database starts to open (a fresh one takes seconds).
    const lock = path.join(dataDir, "hopewell.lock");
    for (let waited = 0; !fs.existsSync(lock); waited += 20) {
      if (waited > 60_000) throw new Error(`no lock after a minute:\n${npm.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const serverPid = Number(fs.readFileSync(lock, "utf8"));
    // The lock appears with its pid in it: an empty one would be read as 0, the test's own process group.
    expect(serverPid).toBeGreaterThan(0);
    servers.push(serverPid);
    expect(npm.output()).not.toContain("database ready");
    process.kill(npm.child.pid!, "SIGTERM");
    const { code } = await npm.exited;
    expect(code, npm.output()).toBe(0);
    expect(npm.output()).toMatch(/"msg":"database closed"/);
    expect(fs.existsSync(lock)).toBe(false);
  }, 150_000);

  it("serves a copy of the build with the production dependencies only, started with npm run serve, its first start as light as any", async () => {
    // What `npm install --omit=dev` leaves: the packages the lock file does not mark as
    // development-only. They are linked from this checkout, so nothing is downloaded.
    const site = tempDir("hopewell-prod-only-");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    for (const [key, entry] of Object.entries(lock.packages)) {
      const name = key.slice("node_modules/".length);
      if (!key.startsWith("node_modules/") || name.includes("node_modules/") || entry.dev || !fs.existsSync(key))
        continue;
      fs.mkdirSync(path.dirname(path.join(site, key)), { recursive: true });
      fs.symlinkSync(path.resolve(key), path.join(site, key));
    }
    expect(fs.existsSync(path.join(site, "node_modules/@react-router/dev"))).toBe(false);
    expect(fs.existsSync(path.join(site, "node_modules/vite"))).toBe(false);
    fs.cpSync("build", path.join(site, "build"), { recursive: true });
    // What the operators' guide lists for a build made elsewhere (docs/operators.md#installing).
    fs.mkdirSync(path.join(site, "scripts/launch"), { recursive: true });
    for (const file of ["server.mjs", "package.json", "scripts/launch/env-file.mjs", "scripts/launch/node-version.mjs"])
      fs.copyFileSync(file, path.join(site, file));
    fs.cpSync("drizzle", path.join(site, "drizzle"), { recursive: true });

    const port = await freePort();
    const serve = run("npm", ["run", "serve", "--prefix", site], {
      DATA_DIR: path.join(site, "data"),
      PORT: String(port),
      LOG_LEVEL: "info",
    });
    running.push(serve);
    await serve.waitFor(/running at http:\/\/localhost:\d+/, 90_000);
    const serverPid = Number(/"pid":(\d+)/.exec(serve.output())![1]);
    servers.push(serverPid);
    const home = await fetch(`http://127.0.0.1:${port}/auth`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Sign In");
    // A first start: the new database was made in a process of its own, so this one holds what
    // any later start does (made in the server itself, it held about 780 MB until a restart).
    expect(serve.output()).toMatch(/"msg":"new embedded database made"/);
    const residentMb =
      Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${serverPid}/status`, "utf8"))![1]) / 1024;
    expect(residentMb).toBeLessThan(300);
    process.kill(serve.child.pid!, "SIGTERM");
    expect((await serve.exited).code).toBe(0);
    // npm passed the signal on: the server stopped too, rather than running on without npm.
    await expect.poll(() => processIsAlive(serverPid), { timeout: 10_000 }).toBe(false);
  }, 150_000);
});
