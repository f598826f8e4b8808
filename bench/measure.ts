import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

export type Target = {
  name: string;
  path: string;
  /** Who asks: nobody, or a signed-in member's cookie. */
  cookie?: string;
  /** A form post whose body is made fresh for every request (a new submission key each time). */
  form?: () => Record<string, string>;
};

export type LoadFigures = {
  reqPerSec: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
};

/** The middle value; with an even count, the mean of the two middle ones. */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One run of `seconds` with `connections` connections (10, as every figure of the benchmark). */
export function loadRun(base: string, target: Target, seconds: number, connections = 10): Promise<LoadFigures> {
  const headers: Record<string, string> = { ...(target.cookie ? { Cookie: target.cookie } : {}) };
  const form = target.form;
  const options: autocannon.Options = {
    url: base + target.path,
    connections,
    duration: seconds,
    headers,
    ...(form
      ? {
          requests: [
            {
              method: "POST",
              headers: { ...headers, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
              setupRequest: (request) => ({ ...request, body: new URLSearchParams(form()).toString() }),
            },
          ],
        }
      : {}),
  };
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      resolve({
        reqPerSec: result.requests.average,
        requests: result.requests.total,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}

/** One visitor at a time for `seconds`: how long a page takes to answer when the site is not busy. */
export async function singleVisitor(base: string, target: Target, seconds: number) {
  const figures = await loadRun(base, target, seconds, 1);
  return { p50: figures.p50, p99: figures.p99 };
}

/** A warm-up, then `runs` measured runs of 10 connections; the medians of those runs. */
export async function loadTest(
  base: string,
  target: Target,
  { runs, seconds, warmup }: { runs: number; seconds: number; warmup: number },
) {
  await loadRun(base, target, warmup);
  const measured: LoadFigures[] = [];
  for (let i = 0; i < runs; i++) measured.push(await loadRun(base, target, seconds));
  return {
    reqPerSec: Math.round(median(measured.map((m) => m.reqPerSec))),
    p50: median(measured.map((m) => m.p50)),
    p99: median(measured.map((m) => m.p99)),
    non2xx: measured.reduce((sum, m) => sum + m.non2xx, 0),
    errors: measured.reduce((sum, m) => sum + m.errors, 0),
    runs: measured.map((m) => Math.round(m.reqPerSec)),
  };
}

/** Signs in as the site's form does (solving its CAPTCHA) and returns the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const challenge = await (await fetch(`${base}/captcha/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email, password, altcha }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie) throw new Error(`signing in as ${email} failed (${response.status})`);
  return cookie;
}

/**
 * The bytes a first visit to `path` downloads compressed, as a browser fetches them: the HTML, and
 * every script (including those a script imports or starts as a worker, and those loaded once the
 * page has run) and style sheet, until the network has been idle for half a second.
 */
export async function pageWeight(base: string, path: string, chromePath: string) {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    const fetched: Promise<{ url: string; kind: "html" | "js" | "css" | "other"; bytes: number }>[] = [];
    page.on("requestfinished", (request) => {
      fetched.push(
        (async () => {
          const response = await request.response();
          const type = response?.headers()["content-type"] ?? "";
          const kind = type.includes("javascript")
            ? "js"
            : type.includes("text/css")
              ? "css"
              : type.includes("text/html")
                ? "html"
                : "other";
          // The body as it came over the wire, compressed.
          return { url: request.url(), kind, bytes: (await request.sizes()).responseBodySize };
        })(),
      );
    });
    await page.goto(base + path, { waitUntil: "networkidle" });
    const all = await Promise.all(fetched);
    const sum = (kind: string) =>
      all.filter((file) => file.kind === kind).reduce((total, file) => total + file.bytes, 0);
    return {
      htmlBytes: sum("html"),
      jsBytes: sum("js"),
      cssBytes: sum("css"),
      scripts: all.filter((file) => file.kind === "js").length,
    };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse's performance and accessibility scores on its default (phone) profile: the median of
 * three runs, as single runs vary; `cookie` signs the page's visitor in. A run Lighthouse could
 * not finish (no score: a page that did not paint in its window, a lost browser) is run again,
 * up to three times in all, and counted in `failedRuns` rather than scored 0.
 */
export async function lighthouseScores(url: string, chromePath: string, cookie?: string) {
  const runs: { performance: number; accessibility: number }[] = [];
  const failures: string[] = [];
  while (runs.length < 3 && failures.length < 3) {
    const run = await lighthouseOnce(url, chromePath, cookie);
    if ("error" in run) failures.push(run.error);
    else runs.push(run);
  }
  if (runs.length === 0) throw new Error(`Lighthouse could not score ${url}: ${failures.join("; ")}`);
  return {
    performance: median(runs.map((r) => r.performance)),
    accessibility: median(runs.map((r) => r.accessibility)),
    performanceRuns: runs.map((r) => r.performance),
    failedRuns: failures,
  };
}

async function lighthouseOnce(
  url: string,
  chromePath: string,
  cookie?: string,
): Promise<{ performance: number; accessibility: number } | { error: string }> {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ["performance", "accessibility"],
      logLevel: "error",
      output: "json",
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    const categories = result?.lhr.categories;
    const performance = categories?.performance?.score;
    const accessibility = categories?.accessibility?.score;
    if (typeof performance !== "number" || typeof accessibility !== "number")
      return { error: result?.lhr.runtimeError?.message ?? "no score" };
    return { performance: Math.round(performance * 100), accessibility: Math.round(accessibility * 100) };
  } finally {
    await chrome.kill();
  }
}

/**
 * How `npm run serve` starts the server in the checkout at `dir`, without npm in between: the
 * script reads "NAME=value ... exec node <options> server.mjs" (exec, so a supervisor's signals
 * reach node). The variables it sets, and node's arguments.
 */
export function serveCommand(dir: string): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { scripts: { serve: string } })
    .scripts.serve;
  const words = script.split(/\s+/).filter((word) => word !== "" && word !== "exec");
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=");
  }
  return { env, args: words.slice(1) };
}

/** Waits until `url` answers 2xx (a server starting); polled every 10 ms, so a cold start is timed to that. */
export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The kernel counts a process's CPU time in ticks of this many milliseconds (`getconf CLK_TCK` is 100 on Linux). */
const TICK_MS = 10;

/**
 * The CPU time a process has used so far, in milliseconds (user and system, Linux). Taken
 * before and after a run, it gives the server's own cost of each request, which the load
 * generator cannot cap: a page answered faster than autocannon can ask still shows its cost.
 */
export function cpuTimeMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command's name (which is in brackets and may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Resident memory of a process now, and its peak so far, in MB (Linux). */
export function memoryOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

/**
 * What every benchmark server runs with: the production build on `dataDir` at `port`, quiet logs,
 * no email, and the demo manager signing in with a password alone (no authenticator app to
 * compute codes from here: the second-factor requirement is off for the benchmark only).
 */
export function benchServerEnv(port: number, dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv {
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    APP_URL: base,
    REQUIRE_MANAGER_2FA: "false",
  };
  delete env.SMTP_URL;
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/**
 * A new database `name` on the PostgreSQL server at `serverUrl` (dropped first if a run that died
 * left it): `fill` loads it (a demo data set, through its URL), and it is checkpointed after, so
 * the freshly loaded pages are written out now rather than in a checkpoint in the middle of a
 * measurement. `drop` removes it.
 */
export async function postgresDatabase(serverUrl: string, name: string, fill: (url: string) => void) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    fill(url.href);
  } catch (error) {
    // A data set that failed to load leaves no database behind, nor a connection holding the process open.
    await admin.query(`drop database if exists ${name} with (force)`).finally(() => admin.end());
    throw error;
  }
  await admin.query("checkpoint").catch(() => console.log("(no permission to CHECKPOINT; figures may include one)"));
  return {
    url: url.href,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A port for a benchmark's server: below the range Linux gives outgoing connections
 * (32768-60999), where a database or load-generator socket could be holding a port picked
 * at random, and free when asked.
 */
export async function serverPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + crypto.randomInt(12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
