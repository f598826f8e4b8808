/**
 * Two data sets side by side on one build: `node --import tsx bench/side-by-side.ts --a DIR --b DIR`
 * (each a DATA_DIR made by `npm run seed:demo -- --large ...`; copied, never changed). Both
 * servers run at once and each page is asked of A, then of B, one request at a time, so the
 * machine's other work falls on both alike. For every page: each run's p99 for one visitor, and
 * the median over the runs. Then each server's idle memory. Used for the `--scale 10` check.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEMO_ACCOUNTS, DEMO_BUSIEST, DEMO_PASSWORD } from "~/ops/demo/seed.server";
import { benchServerEnv, memoryOf, serverPort, signIn } from "./measure";

const { values: options } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    runs: { type: "string", default: "5" },
    requests: { type: "string", default: "100" },
  },
});
if (!options.a || !options.b) throw new Error("--a DIR and --b DIR name the two data directories");
const ROOT = path.resolve(import.meta.dirname, "..");
const SERVE_ARGS = (
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: { serve: string };
  }
).scripts.serve
  .split(/\s+/)
  .filter((word) => word !== "exec")
  .slice(1);

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

type Server = {
  base: string;
  child: ChildProcess;
  dataDir: string;
  manager: string;
  player: string;
  paths: Record<string, string>;
};
const servers: Server[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const s of servers) s.child.kill("SIGTERM");
    process.exit(1);
  });
}

async function start(template: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-side-"));
  fs.cpSync(template, dataDir, { recursive: true });
  const port = await serverPort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(port, dataDir);
  const child = spawn("node", SERVE_ARGS, {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const server: Server = {
    base,
    child,
    dataDir,
    manager: "",
    player: "",
    paths: {},
  };
  servers.push(server);
  for (const deadline = Date.now() + 60_000; ;) {
    if (
      await fetch(`${base}/healthz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (Date.now() > deadline) throw new Error(`${base} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.manager = await signIn(base, DEMO_ACCOUNTS.manager, DEMO_PASSWORD);
  server.player = await signIn(base, DEMO_ACCOUNTS.player, DEMO_PASSWORD);
  const html = async (p: string) => (await fetch(base + p, { headers: { Cookie: server.manager } })).text();
  const firstEvent = (review: string) => html(review).then((page) => page.match(/\?event=([0-9a-f-]{36})/)?.[1]);
  const index = (await html("/tools/event-day")).replaceAll("<!-- -->", "");
  const links = [...index.matchAll(/\/tools\/event-day\/([0-9a-f-]{36})/g)];
  const sheet = links.find((link, i) =>
    index.slice(link.index, links[i + 1]?.index).includes(`${DEMO_BUSIEST.eventDayAttendees} paid`),
  )?.[1];
  server.paths = {
    "/events (player)": "/events",
    "/view-pels": "/view-pels",
    "/view-pels, the 20,000-letter event open": `/view-pels?event=${await firstEvent("/view-pels")}`,
    "/view-merchant-orders, an event open": `/view-merchant-orders?event=${await firstEvent("/view-merchant-orders")}`,
    "/view-research, an event open": `/view-research?event=${await firstEvent("/view-research")}`,
    "/view-costumes": "/view-costumes",
    "/view-letters": "/view-letters",
    "/view-letters?q=lantern": "/view-letters?q=lantern",
    "/tools": "/tools",
    "/tools/event-day/:id, 300 attendees": `/tools/event-day/${sheet}`,
  };
  return server;
}

async function timed(server: Server, name: string): Promise<number> {
  const cookie = name.includes("(player)") ? server.player : server.manager;
  const started = performance.now();
  const response = await fetch(server.base + server.paths[name], {
    headers: { Cookie: cookie },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${name} answered ${response.status} on ${server.base}`);
  return performance.now() - started;
}

async function main() {
  const a = await start(options.a!);
  const b = await start(options.b!);
  try {
    const names = Object.keys(a.paths);
    // Every page once, then a pause: idle memory includes every route's code and the caches they fill.
    for (const name of names) for (const s of [a, b]) await timed(s, name);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = [memoryOf(a.child.pid!).rssMb, memoryOf(b.child.pid!).rssMb];
    const runs = Number(options.runs);
    const requests = Number(options.requests);
    const rows = [];
    for (const name of names) {
      const p99s: [number[], number[]] = [[], []];
      const p50s: [number[], number[]] = [[], []];
      for (let run = 0; run < runs; run++) {
        const times: [number[], number[]] = [[], []];
        for (let i = 0; i < requests; i++) {
          times[0].push(await timed(a, name));
          times[1].push(await timed(b, name));
        }
        for (const side of [0, 1] as const) {
          p99s[side].push(percentile(times[side], 99));
          p50s[side].push(percentile(times[side], 50));
        }
      }
      const [p99a, p99b] = [median(p99s[0]), median(p99s[1])];
      rows.push({
        page: name,
        "A p50": +median(p50s[0]).toFixed(1),
        "B p50": +median(p50s[1]).toFixed(1),
        "A p99": +p99a.toFixed(1),
        "B p99": +p99b.toFixed(1),
        "B/A": +(p99b / p99a).toFixed(2),
        "A runs": p99s[0].map((x) => Math.round(x)),
        "B runs": p99s[1].map((x) => Math.round(x)),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
    console.table(rows);
    console.log(
      `Idle RSS: A ${idle[0]} MB, B ${idle[1]} MB; peak: A ${memoryOf(a.child.pid!).peakMb} MB, B ${memoryOf(b.child.pid!).peakMb} MB`,
    );
    const out = {
      at: new Date().toISOString(),
      a: options.a,
      b: options.b,
      runs,
      requestsPerRun: requests,
      idleRssMb: { a: idle[0], b: idle[1] },
      rows,
    };
    const file = path.join(
      ROOT,
      "bench",
      "results",
      `${new Date().toISOString().replaceAll(":", "-").slice(0, 19)}-side-by-side.json`,
    );
    fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`Written to ${path.relative(ROOT, file)}`);
  } finally {
    for (const s of servers) {
      s.child.kill("SIGTERM");
      await new Promise((resolve) => (s.child.exitCode !== null ? resolve(null) : s.child.once("exit", resolve)));
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((error) => {
  console.error(error);
  for (const s of servers) s.child.kill("SIGTERM");
  process.exit(1);
});
