/**
 * The benchmark: `npm run bench` (options: --runs 5 --seconds 5 --warmup 2 --no-build
 * --no-lighthouse --pglite-only --scale N --baseline FILE). It builds the site, makes the large demo data set once
 * (cached under bench/.cache), starts the production server on a fresh copy, and
 * load-tests it from this process with 10 connections: a warm-up, then several runs,
 * reporting medians. A bare node:http server returning the home page's bytes from memory
 * is the ceiling. The same on PostgreSQL when DATABASE_URL or a local server answers.
 * Figures are printed and written to bench/results/. `--scale 10` multiplies every count of
 * the data set by ten, to see how cost grows; `--baseline` names an earlier results file (on
 * the standard data set) whose review pages' p99 this run's may exceed by at most half.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { DEMO_ACCOUNTS, DEMO_BUSIEST, DEMO_LARGE, DEMO_PASSWORD } from "~/ops/demo/seed.server";
import {
  type Baseline,
  type BenchRun,
  budgetChecks,
  FLOOR_PAGE,
  type Kind,
  type PageGroup,
  type PageResult,
  printRun,
} from "./budgets";
import {
  benchServerEnv,
  lighthouseScores,
  loadTest,
  median,
  memoryOf,
  pageWeight,
  postgresDatabase,
  serveCommand,
  serverPort,
  signIn,
  singleVisitor,
  type Target,
  waitFor,
} from "./measure";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    "no-build": { type: "boolean", default: false },
    "no-lighthouse": { type: "boolean", default: false },
    "pglite-only": { type: "boolean", default: false },
    scale: { type: "string", default: "1" },
    baseline: { type: "string" },
  },
});
const SCALE = Number(options.scale);
if (!Number.isInteger(SCALE) || SCALE < 1) throw new Error("--scale must be a whole number of at least 1");
/** The seeding script's options for the data set: the large one, times SCALE. */
const SEED_ARGS = [
  "scripts/seed-demo.ts",
  "--large",
  ...(SCALE === 1 ? [] : Object.entries(DEMO_LARGE).flatMap(([name, count]) => [`--${name}`, String(count * SCALE)])),
];
const LOAD = { runs: Number(options.runs), seconds: Number(options.seconds), warmup: Number(options.warmup) };
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ROOT = path.resolve(import.meta.dirname, "..");
const CACHE = path.join(ROOT, "bench", ".cache");
const LOCAL_PG = "postgres://postgres@127.0.0.1:5432/postgres";
/** How many times the server is started on each database; the cold start reported is their median. */
const COLD_STARTS = 3;

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/** Processes the benchmark started: stopped when it is interrupted, so no server is left running. */
const started = new Set<ChildProcess>();
function startNode(args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn("node", args, options);
  started.add(child);
  child.once("exit", () => started.delete(child));
  return child;
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    for (const child of started) child.kill("SIGTERM");
    process.exit(1);
  });
}

/** The server is started as `npm run serve` starts it (its Node options and variables included), without npm in between. */
const SERVE = serveCommand(ROOT);

/** The event whose sheet lists `attendees` people, from the event-day index's links and counts. */
function eventDaySheetFor(indexHtml: string, attendees: number): string {
  const links = [...indexHtml.matchAll(/\/tools\/event-day\/([0-9a-f-]{36})/g)];
  const found = links.find((link, i) =>
    indexHtml
      .slice(link.index, links[i + 1]?.index)
      .replaceAll("<!-- -->", "")
      .includes(`${attendees} paid`),
  );
  if (!found) throw new Error(`No event on /tools/event-day lists ${attendees} attendees`);
  return found[1]!;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** The large data set in a PGlite data directory, made once per change of the migrations or the seeding code. */
function pgliteTemplate(): string {
  const hash = crypto.createHash("sha256");
  for (const dir of ["drizzle", "app/ops/demo", "app/platform/db"]) {
    for (const file of fs.readdirSync(path.join(ROOT, dir), { recursive: true }).map(String).sort()) {
      const full = path.join(ROOT, dir, file);
      if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
    }
  }
  const template = path.join(
    CACHE,
    `pglite-large${SCALE === 1 ? "" : `-x${SCALE}`}-${hash.digest("hex").slice(0, 12)}`,
  );
  if (!fs.existsSync(template)) {
    // Data sets made by older code are of no further use.
    const current = template.slice(template.lastIndexOf("-") + 1);
    for (const old of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : [])
      if (!old.endsWith(current)) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
    console.log("Making the large data set (once)…");
    const partial = `${template}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    run("node", ["--import", "tsx", ...SEED_ARGS], { DATA_DIR: partial, LOG_LEVEL: "warn" });
    fs.renameSync(partial, template);
  }
  return template;
}

async function postgresUrl(): Promise<string | null> {
  const url = process.env.DATABASE_URL ?? LOCAL_PG;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch {
    return null;
  }
}

async function benchmark(kind: Kind, databaseUrl?: string): Promise<BenchRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-bench-${kind}-`));
  let database: Awaited<ReturnType<typeof postgresDatabase>> | undefined;
  if (kind === "pglite") fs.cpSync(pgliteTemplate(), dataDir, { recursive: true });
  else {
    console.log("Making the large data set on PostgreSQL…");
    database = await postgresDatabase(databaseUrl!, `hopewell_bench_${process.pid}`, (url) =>
      run("node", ["--import", "tsx", ...SEED_ARGS], { DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "warn" }),
    );
  }

  const port = await serverPort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(port, dataDir, database?.url);
  // One start is one sample of what else the machine is doing at that second: the server is
  // started COLD_STARTS times and the median taken; the last start is the one measured.
  const coldStartRuns: number[] = [];
  const startServer = async () => {
    const startedAt = performance.now();
    const child = startNode(SERVE.args, {
      cwd: ROOT,
      env: { ...env, ...SERVE.env },
      stdio: ["ignore", "ignore", "inherit"],
    });
    try {
      await waitFor(`${base}/healthz`, 30_000);
    } catch (error) {
      await stop(child);
      throw error;
    }
    coldStartRuns.push(Math.round(performance.now() - startedAt));
    return child;
  };
  let server: ChildProcess | undefined;
  try {
    for (let start = 1; start < COLD_STARTS; start++) await stop(await startServer());
    server = await startServer();
    const coldStartMs = median(coldStartRuns);

    const player = await signIn(base, DEMO_ACCOUNTS.player, DEMO_PASSWORD);
    const manager = await signIn(base, DEMO_ACCOUNTS.manager, DEMO_PASSWORD);
    // The newest past event is listed first, and it holds the data set's 20,000-letter queue.
    const firstEvent = (await (await fetch(`${base}/view-pels`, { headers: { Cookie: manager } })).text()).match(
      /\?event=([0-9a-f-]{36})/,
    )?.[1];
    const eventDay = eventDaySheetFor(
      await (await fetch(`${base}/tools/event-day`, { headers: { Cookie: manager } })).text(),
      DEMO_BUSIEST.eventDayAttendees,
    );
    const targets: (Target & { group: PageGroup })[] = [
      { group: "anonymous", name: "/ (signed out)", path: "/" },
      { group: "anonymous", name: "/rulebook (signed out)", path: "/rulebook" },
      { group: "anonymous", name: "/locations (signed out)", path: "/locations" },
      // A page that reads nothing but the session: what any signed-in page costs at least
      // (docs/decisions/0015-signed-in-floor.md).
      { group: "floor", name: FLOOR_PAGE, path: "/locations", cookie: player },
      // The page a member lands on after signing in: their next steps above the public page.
      { group: "signed-in", name: "/ (player)", path: "/", cookie: player },
      { group: "signed-in", name: "/ (manager)", path: "/", cookie: manager },
      { group: "signed-in", name: "/events (player)", path: "/events", cookie: player },
      { group: "signed-in", name: "/profile (player)", path: "/profile", cookie: player },
      { group: "signed-in", name: "/letters?tab=box (player)", path: "/letters?tab=box", cookie: player },
      { group: "review", name: "/view-pels (manager)", path: "/view-pels", cookie: manager },
      {
        group: "review",
        name: "/view-pels, an event open (manager)",
        path: `/view-pels?event=${firstEvent}`,
        cookie: manager,
      },
      {
        group: "sheet",
        name: "/tools/event-day/:id, 300 attendees (manager)",
        path: `/tools/event-day/${eventDay}`,
        cookie: manager,
      },
      {
        group: "review",
        name: "/view-merchant-orders, an event open",
        path: `/view-merchant-orders?event=${firstEvent}`,
        cookie: manager,
      },
      { group: "review", name: "/view-letters (manager)", path: "/view-letters", cookie: manager },
      { group: "review", name: "/view-letters?q=lantern", path: "/view-letters?q=lantern", cookie: manager },
      { group: "review", name: "/tools (manager)", path: "/tools", cookie: manager },
      {
        group: "form",
        name: "POST /letters (player)",
        path: "/letters",
        cookie: player,
        form: () => ({
          submissionKey: crypto.randomUUID(),
          recipient: "Silas Marsh",
          body: "Meet me at the assay office after dark.",
        }),
      },
    ];
    // One request to each page first, so idle memory includes every route's code.
    for (const target of targets.filter((t) => !t.form))
      await fetch(base + target.path, { headers: target.cookie ? { Cookie: target.cookie } : {} });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = memoryOf(server.pid!);

    const results: PageResult[] = [];
    for (const target of targets) {
      const figures = await loadTest(base, target, LOAD);
      const alone =
        target.group === "review" || target.group === "sheet"
          ? await singleVisitor(base, target, LOAD.seconds)
          : undefined;
      results.push({
        group: target.group,
        name: target.name,
        ...figures,
        ...(alone ? { aloneP50: alone.p50, aloneP99: alone.p99 } : {}),
      });
      console.log(`  ${kind} ${target.name}: ${figures.reqPerSec} req/s, p99 ${figures.p99} ms`);
    }
    const peak = memoryOf(server.pid!);

    const weights: BenchRun["weights"] = [];
    // The public pages, and the page a visitor opens next to sign up (the first to load the app).
    if (kind === "pglite" && fs.existsSync(CHROME))
      for (const page of ["/", "/rulebook", "/locations", "/auth"])
        weights.push({ page, ...(await pageWeight(base, page, CHROME)) });
    const lighthouse: BenchRun["lighthouse"] = [];
    if (kind === "pglite" && !options["no-lighthouse"] && fs.existsSync(CHROME)) {
      // The public pages, the sign-in page (the first to load the app's scripts), and the member's busiest pages.
      for (const page of ["/", "/rulebook", "/locations", "/auth"])
        lighthouse.push({ page, ...(await lighthouseScores(base + page, CHROME)) });
      for (const page of ["/profile", "/events"])
        lighthouse.push({ page: `${page} (player)`, ...(await lighthouseScores(base + page, CHROME, player)) });
    }
    return {
      kind,
      coldStartMs,
      coldStartRuns,
      idleRssMb: idle.rssMb,
      peakRssMb: peak.peakMb,
      results,
      weights,
      lighthouse,
    };
  } finally {
    if (server) await stop(server);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function ceiling(homeHtml: Buffer) {
  const file = path.join(os.tmpdir(), `hopewell-ceiling-${process.pid}.html`);
  fs.writeFileSync(file, homeHtml);
  const port = await serverPort();
  const child = startNode([path.join(ROOT, "bench", "ceiling.mjs"), file, String(port)], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 10_000);
    return await loadTest(`http://127.0.0.1:${port}`, { name: "ceiling", path: "/" }, LOAD);
  } finally {
    await stop(child);
    fs.rmSync(file, { force: true });
  }
}

/** The home page's bytes as a signed-out visitor receives them, for the ceiling server. */
async function homePageBytes(): Promise<Buffer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-bench-home-"));
  const port = await serverPort();
  const server = startNode(SERVE.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVE.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`, 30_000);
    return Buffer.from(
      await (await fetch(`http://127.0.0.1:${port}/`, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer(),
    );
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!options["no-build"]) run("npm", ["run", "build", "--silent"]);
  const ceilingFigures = await ceiling(await homePageBytes());
  console.log(`  ceiling (bare node:http): ${ceilingFigures.reqPerSec} req/s`);

  const runs: BenchRun[] = [await benchmark("pglite")];
  const pgUrl = options["pglite-only"] ? null : await postgresUrl();
  if (pgUrl) runs.push(await benchmark("postgres", pgUrl));
  else
    console.log(
      options["pglite-only"]
        ? "PostgreSQL skipped (--pglite-only)."
        : "No PostgreSQL answers (DATABASE_URL or 127.0.0.1:5432): measured PGlite only.",
    );

  console.log(
    `\nCeiling: ${ceilingFigures.reqPerSec} req/s (p99 ${ceilingFigures.p99} ms). ${LOAD.runs} runs of ${LOAD.seconds} s after a ${LOAD.warmup} s warm-up, 10 connections; medians.\n`,
  );
  for (const r of runs) printRun(r, ceilingFigures.reqPerSec);
  const baseline = options.baseline ? (JSON.parse(fs.readFileSync(options.baseline, "utf8")) as Baseline) : undefined;
  const checks = budgetChecks(runs, ceilingFigures.reqPerSec, baseline);
  console.log("Budgets:");
  console.table(checks);

  const resultsDir = path.join(ROOT, "bench", "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replaceAll(":", "-").slice(0, 19);
  const report = {
    at: new Date().toISOString(),
    scale: SCALE,
    machine: { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    load: { connections: 10, ...LOAD },
    ceiling: ceilingFigures,
    runs,
    checks,
  };
  const name = `${stamp}${SCALE === 1 ? "" : `-x${SCALE}`}.json`;
  fs.writeFileSync(path.join(resultsDir, name), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written to bench/results/${name}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
