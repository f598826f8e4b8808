/**
 * This checkout side by side with another revision: `npm run bench:against -- <ref>` (options:
 * --runs 5 --seconds 3 --warmup 2 --starts 2 --page "/events (player)" --page "/profile (player)" --no-build
 * --postgres postgres://postgres@127.0.0.1:5432/postgres --same-data).
 *
 * The other revision is exported from git into a folder of its own (kept in the system's temporary
 * folder by its commit, so a second comparison with it starts at once), installed with its own lock file
 * and built. Each build gets its own large demo data set made by its own `seed:demo -- --large`
 * (also kept, by commit and by the seeding code's hash), copied afresh for every comparison.
 * With --postgres, each build instead gets a database of its own on that PostgreSQL server, made
 * afresh by its own `seed:demo -- --large` and dropped after.
 * Both production servers run at once; for each page, each server takes a short warm-up, then
 * the runs alternate between them (the other revision first on even runs, this checkout first on
 * odd ones), so whatever else the machine does falls on both alike. Each run is 10 connections
 * for `--seconds`; the table gives each side's median requests per second and this / other, and
 * each server's median CPU time per request (read from the kernel before and after each run) and
 * other / this. The second is the fair figure where the load generator, not the server, sets
 * the rate: a signed-out page answered from memory at 15,000 a second or more.
 *
 * Each server is started `--starts` times (both stopped and started again between), and every
 * page is measured on each start: two processes of one build can differ by a fifth on the same
 * page for as long as they run (the same build against itself measured 0.81 on one pair and 1.25
 * on the next), so one start of each is one sample, not a measurement. The medians are over the
 * runs of every start; each start's own ratio is printed beside them.
 * Each server runs on the Node.js its own install gives it: the `node` in its node_modules when its
 * lock file has one (from the move off Node.js 20 on), else the machine's (the Node.js npm itself runs on, or
 * `--other-node PATH`). So a comparison with a revision from from before that move measures
 * the whole change, runtime included, as a site moving from one to the other would see it.
 * The seed is random, so two data sets differ: the event a page opens can hold 14 research papers
 * in one and 19 in the other, a third more work for the page. With --same-data both builds serve
 * copies of the other revision's data set, which is the fair comparison when the two have the same
 * migrations, or when this checkout's follow on from the other's (its server then migrates its copy
 * when it starts, as an upgraded site does); it refuses otherwise. Without it, each build is
 * measured on the data it makes.
 * The figures are written to bench/results/<time>-against-<commit>.json.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  benchServerEnv,
  cpuTimeMs,
  loadRun,
  memoryOf,
  postgresDatabase,
  serveCommand,
  serverPort,
  signIn,
  type Target,
  waitFor,
} from "./measure";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    starts: { type: "string", default: "2" },
    page: { type: "string", multiple: true },
    "no-build": { type: "boolean", default: false },
    postgres: { type: "string" },
    "other-node": { type: "string" },
    "same-data": { type: "boolean", default: false },
  },
});
const ref = positionals[0];
if (!ref) {
  console.error(
    "Usage: npm run bench:against -- <git revision> [--runs 5] [--seconds 3] [--warmup 2] [--starts 2] [--page NAME]... [--no-build] [--postgres SERVER_URL] [--other-node PATH] [--same-data]",
  );
  process.exit(2);
}
const RUNS = Number(options.runs);
const SECONDS = Number(options.seconds);
const WARMUP = Number(options.warmup);
const STARTS = Number(options.starts);
const ROOT = path.resolve(import.meta.dirname, "..");
/** Outside the checkout, so no tool of this one (lint, types, tests) walks into the other's files. */
const CACHE = path.join(os.tmpdir(), "hopewell-bench-against");
/** The demo accounts and their password: the same in every revision that has the large data set. */
const DEMO = { manager: "manager@hopewell.test", player: "player@hopewell.test", password: "Hopewell#1877" };
/** The event-day sheet measured: the data set's busiest event (DEMO_BUSIEST.eventDayAttendees). */
const SHEET_ATTENDEES = 300;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`);
}

function git(...args: string[]): string {
  const result = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** The other revision, exported, installed and built once per commit. */
function otherBuild(commit: string): string {
  const dir = path.join(CACHE, `against-${commit.slice(0, 12)}`);
  const built = path.join(dir, ".bench-built");
  if (fs.existsSync(built)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(`Exporting ${commit.slice(0, 12)} into ${dir}, installing and building it (once)…`);
  const archive = spawnSync("git", ["archive", "--format=tar", commit], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
  const unpacked = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (unpacked.status !== 0) throw new Error(`unpacking ${commit} failed`);
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir);
  run("npm", ["run", "build", "--silent"], dir);
  fs.writeFileSync(built, new Date().toISOString());
  return dir;
}

/** A hash of what makes a build's data set: its migrations, its seeding code and its PGlite (whose files it is). */
function seedingHash(dir: string): string {
  const hash = crypto.createHash("sha256");
  hash.update(fs.readFileSync(path.join(dir, "node_modules", "@electric-sql", "pglite", "package.json")));
  for (const sub of [
    "drizzle",
    "app/ops/demo",
    "app/server/demo",
    "app/platform/db",
    "app/server/db",
    "app/db",
    "scripts/seed-demo.ts",
  ]) {
    const full = path.join(dir, sub);
    if (!fs.existsSync(full)) continue;
    const files = fs.statSync(full).isFile()
      ? [full]
      : fs.readdirSync(full, { recursive: true }).map((file) => path.join(full, String(file)));
    for (const file of files.sort())
      if (fs.statSync(file).isFile()) hash.update(path.relative(dir, file)).update(fs.readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}

/** The build's own large data set (made by its own seed:demo), kept by what made it. */
function dataSet(dir: string): string {
  const template = path.join(CACHE, `against-data-${seedingHash(dir)}`);
  if (fs.existsSync(template)) return template;
  console.log(`Making ${dir === ROOT ? "this checkout" : dir}'s large data set with its own seed:demo (once)…`);
  const partial = `${template}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  run("node", ["--import", "tsx", "scripts/seed-demo.ts", "--large"], dir, {
    DATA_DIR: partial,
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
  });
  fs.renameSync(partial, template);
  return template;
}

/** One build: its data, and its server while one runs. */
type Side = {
  label: string;
  dir: string;
  dataDir: string;
  node: string;
  databaseUrl?: string;
  child?: ChildProcess;
  base: string;
  targets: Map<string, Target>;
};

/** The Node.js a build is served with: its own install's, else the machine's (see the header). */
function nodeOf(dir: string): string {
  const own = path.join(dir, "node_modules", ".bin", "node");
  if (fs.existsSync(own)) return own;
  return options["other-node"] ?? process.env.npm_node_execpath ?? "node";
}
const versionOf = (node: string) => spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
const sides: Side[] = [];
/** Databases made on the PostgreSQL server, dropped when the comparison ends or is interrupted. */
const databases: (() => Promise<void>)[] = [];
function stopAll() {
  for (const side of sides) side.child?.kill("SIGTERM");
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    stopAll();
    void Promise.allSettled(databases.map((drop) => drop())).then(() => process.exit(1));
  });
}

/** The pages compared, as each server names them (event ids differ between the two data sets). */
async function targetsOf(base: string): Promise<Map<string, Target>> {
  const player = await signIn(base, DEMO.player, DEMO.password);
  const manager = await signIn(base, DEMO.manager, DEMO.password);
  const page = (address: string) =>
    fetch(base + address, { headers: { Cookie: manager } }).then((response) => response.text());
  // The newest past event is listed first, and it holds the data set's 20,000-letter queue.
  const firstEvent = (await page("/view-pels")).match(/\?event=([0-9a-f-]{36})/)?.[1];
  const sheets = (await page("/tools/event-day")).replaceAll("<!-- -->", "");
  const links = [...sheets.matchAll(/\/tools\/event-day\/([0-9a-f-]{36})/g)];
  const sheet = links.find((link, i) =>
    sheets.slice(link.index, links[i + 1]?.index).includes(`${SHEET_ATTENDEES} paid`),
  )?.[1];
  const all: Target[] = [
    { name: "/ (signed out)", path: "/" },
    { name: "/locations (player, signed in)", path: "/locations", cookie: player },
    { name: "/ (player)", path: "/", cookie: player },
    { name: "/ (manager)", path: "/", cookie: manager },
    { name: "/profile (player)", path: "/profile", cookie: player },
    { name: "/events (player)", path: "/events", cookie: player },
    { name: "/letters?tab=box (player)", path: "/letters?tab=box", cookie: player },
    { name: "/view-pels (manager)", path: "/view-pels", cookie: manager },
    { name: "/view-pels, an event open (manager)", path: `/view-pels?event=${firstEvent}`, cookie: manager },
    {
      name: "/view-merchant-orders, an event open",
      path: `/view-merchant-orders?event=${firstEvent}`,
      cookie: manager,
    },
    { name: "/view-research, an event open", path: `/view-research?event=${firstEvent}`, cookie: manager },
    { name: "/view-letters (manager)", path: "/view-letters", cookie: manager },
    { name: "/view-letters?q=lantern", path: "/view-letters?q=lantern", cookie: manager },
    { name: "/view-costumes (manager)", path: "/view-costumes", cookie: manager },
    { name: "/tools (manager)", path: "/tools", cookie: manager },
    ...(sheet
      ? [{ name: "/tools/event-day/:id, 300 attendees (manager)", path: `/tools/event-day/${sheet}`, cookie: manager }]
      : []),
    {
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
  return new Map(all.map((target) => [target.name, target]));
}

/** On PostgreSQL: a database of the build's own, filled by its own seed:demo (uploads in `dataDir`). */
async function postgresDataSet(serverUrl: string, dir: string, dataDir: string, index: number) {
  console.log(`Making ${dir === ROOT ? "this checkout" : dir}'s large data set on PostgreSQL with its own seed:demo…`);
  const database = await postgresDatabase(serverUrl, `hopewell_against_${process.pid}_${index}`, (url) =>
    run("node", ["--import", "tsx", "scripts/seed-demo.ts", "--large"], dir, {
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: url,
    }),
  );
  databases.push(database.drop);
  return database.url;
}

/** A build's data: a fresh copy of its data set, or a database of its own with --postgres. */
/** A hash of a build's migrations: two builds with the same one can serve the same data. */
function migrationsHash(dir: string): string {
  const hash = crypto.createHash("sha256");
  const folder = path.join(dir, "drizzle");
  for (const file of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
    const full = path.join(folder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex");
}

/**
 * Whether `dir`'s build can serve `other`'s data set: the same migrations, or `other`'s and then
 * more, which `dir`'s server applies to its copy when it starts, as an upgraded site does.
 */
function servesDataOf(dir: string, other: string): boolean {
  if (migrationsHash(dir) === migrationsHash(other)) return true;
  const tags = (root: string) =>
    (
      JSON.parse(fs.readFileSync(path.join(root, "drizzle", "meta", "_journal.json"), "utf8")) as {
        entries: { tag: string }[];
      }
    ).entries.map((entry) => entry.tag);
  const ours = tags(dir);
  const theirs = tags(other);
  const sql = (root: string, tag: string) => fs.readFileSync(path.join(root, "drizzle", `${tag}.sql`), "utf8");
  return theirs.every((tag, n) => ours[n] === tag && sql(dir, tag) === sql(other, tag));
}

async function prepare(label: string, dir: string, dataFrom = dir): Promise<Side> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-against-"));
  const side: Side = { label, dir, dataDir, node: nodeOf(dir), base: "", targets: new Map() };
  console.log(`${label} is served by Node.js ${versionOf(side.node)} (${side.node})`);
  sides.push(side);
  side.databaseUrl = options.postgres ? await postgresDataSet(options.postgres, dir, dataDir, sides.length) : undefined;
  if (!side.databaseUrl) fs.cpSync(dataSet(dataFrom), dataDir, { recursive: true });
  return side;
}

/** Starts the build's production server on its data, on a port of its own, and signs in. */
async function launch(side: Side): Promise<void> {
  const port = await serverPort();
  side.base = `http://127.0.0.1:${port}`;
  const serve = serveCommand(side.dir);
  side.child = spawn(side.node, serve.args, {
    cwd: side.dir,
    env: { ...benchServerEnv(port, side.dataDir, side.databaseUrl), ...serve.env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitFor(`${side.base}/healthz`, 120_000);
  side.targets = await targetsOf(side.base);
}

async function stop(side: Side): Promise<void> {
  const child = side.child;
  if (!child) return;
  side.child = undefined;
  child.kill("SIGTERM");
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once("exit", resolve));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Samples = {
  figures: [number[], number[]];
  cpu: [number[], number[]];
  refused: [number, number];
  eachStart: number[];
};

async function main() {
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
  const otherDir = otherBuild(commit);
  if (!options["no-build"]) run("npm", ["run", "build", "--silent"], ROOT);
  if (options["same-data"] && (options.postgres || !servesDataOf(ROOT, otherDir))) {
    console.error(
      options.postgres
        ? "--same-data works on the embedded database only."
        : `--same-data needs this checkout's migrations to be ${commit.slice(0, 7)}'s, or to follow on from them.`,
    );
    process.exit(2);
  }
  const other = await prepare(commit.slice(0, 7), otherDir);
  const here = await prepare("this checkout", ROOT, options["same-data"] ? otherDir : ROOT);
  const samples = new Map<string, Samples>();
  let wanted: string[] = [];
  let memoryAfterRunsMb: Record<string, number> = {};
  try {
    for (let start = 0; start < STARTS; start++) {
      // Started one after the other, the other revision first on even starts.
      for (const side of start % 2 === 0 ? [other, here] : [here, other]) await launch(side);
      if (start === 0) wanted = options.page?.length ? options.page : [...here.targets.keys()];
      for (const name of wanted) {
        const pair = [other.targets.get(name), here.targets.get(name)] as const;
        if (!pair[0] || !pair[1]) {
          if (start === 0) console.log(`  ${name}: not on ${pair[0] ? "this checkout" : other.label}, skipped`);
          continue;
        }
        for (const [i, side] of [other, here].entries()) await loadRun(side.base, pair[i]!, WARMUP);
        const sample: Samples = samples.get(name) ?? {
          figures: [[], []],
          cpu: [[], []],
          refused: [0, 0],
          eachStart: [],
        };
        samples.set(name, sample);
        const thisStart: [number[], number[]] = [[], []];
        for (let r = 0; r < RUNS; r++) {
          for (const i of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
            const side = i === 0 ? other : here;
            const cpuBefore = cpuTimeMs(side.child!.pid!);
            const result = await loadRun(side.base, pair[i]!, SECONDS);
            thisStart[i].push(Math.round(result.reqPerSec));
            sample.cpu[i].push(
              Math.round(((cpuTimeMs(side.child!.pid!) - cpuBefore) * 1000) / Math.max(result.requests, 1)),
            );
            sample.refused[i] += result.non2xx + result.errors;
          }
        }
        sample.figures[0].push(...thisStart[0]);
        sample.figures[1].push(...thisStart[1]);
        sample.eachStart.push(+(median(thisStart[1]) / median(thisStart[0])).toFixed(2));
        console.log(
          `  ${name}, start ${start + 1} of ${STARTS}: ${median(thisStart[0])} → ${median(thisStart[1])} req/s (${sample.eachStart.at(-1)})`,
        );
      }
      if (start === STARTS - 1)
        memoryAfterRunsMb = {
          [other.label]: memoryOf(other.child!.pid!).rssMb,
          "this checkout": memoryOf(here.child!.pid!).rssMb,
        };
      await Promise.all([stop(other), stop(here)]);
    }
    const rows = [...samples].map(([name, sample]) => {
      const [before, after] = [median(sample.figures[0]), median(sample.figures[1])];
      const [cpuBefore, cpuAfter] = [median(sample.cpu[0]), median(sample.cpu[1])];
      return {
        page: name,
        [other.label]: before,
        "this checkout": after,
        ratio: +(after / before).toFixed(2),
        eachStart: sample.eachStart,
        // The server's CPU per request, in µs, and the other's over this checkout's (above 1: this one does less work).
        cpuUsPerRequest: { [other.label]: cpuBefore, "this checkout": cpuAfter },
        cpuRatio: +(cpuBefore / Math.max(cpuAfter, 1)).toFixed(2),
        runs: { [other.label]: sample.figures[0], "this checkout": sample.figures[1] },
        cpuRuns: { [other.label]: sample.cpu[0], "this checkout": sample.cpu[1] },
        refused: sample.refused,
      };
    });
    console.log(
      `\n| page | ${other.label} req/s | this checkout req/s | this / ${other.label} | each start | server CPU µs a request, ${other.label} → this | ${other.label} / this |\n|---|---|---|---|---|---|---|`,
    );
    for (const row of rows) {
      const cpuUs = row.cpuUsPerRequest;
      const refused = row.refused[0] || row.refused[1] ? ` (not 2xx: ${row.refused.join(" / ")})` : "";
      console.log(
        `| ${row.page}${refused} | ${row[other.label]} | ${row["this checkout"]} | ${row.ratio.toFixed(2)} | ${row.eachStart.join(", ")} | ${cpuUs[other.label]} → ${cpuUs["this checkout"]} | ${row.cpuRatio.toFixed(2)} |`,
      );
    }
    console.log(
      `\nMemory after the last start's runs: ${other.label} ${memoryAfterRunsMb[other.label]} MB, this checkout ${memoryAfterRunsMb["this checkout"]} MB`,
    );
    const results = path.join(ROOT, "bench", "results");
    fs.mkdirSync(results, { recursive: true });
    const file = path.join(
      results,
      `${new Date().toISOString().replaceAll(":", "-").slice(0, 19)}-against-${commit.slice(0, 7)}.json`,
    );
    const thisCommit = git("rev-parse", "HEAD");
    const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
    fs.writeFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), against: commit, this: `${thisCommit}${dirty ? " (with uncommitted changes)" : ""}`, database: options.postgres ? "postgres" : "pglite", sameData: options["same-data"], machine: { cpus: os.availableParallelism(), loadAverage: os.loadavg() }, node: { [other.label]: versionOf(other.node), "this checkout": versionOf(here.node) }, starts: STARTS, runs: RUNS, seconds: SECONDS, rows, memoryAfterRunsMb }, null, 2)}\n`,
    );
    console.log(`Written to ${path.relative(ROOT, file)}`);
  } finally {
    for (const side of sides) {
      await stop(side);
      fs.rmSync(side.dataDir, { recursive: true, force: true });
    }
    for (const drop of databases.splice(0)) await drop();
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  stopAll();
  await Promise.allSettled(databases.map((drop) => drop()));
  process.exit(1);
});
