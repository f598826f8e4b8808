// `npm run dev`: the production server (http/start.ts) run from the source, with Vite in
// middleware mode serving the browser's modules and reloading edits. So development has
// the same request pipeline as production: security headers and CSP, the signed-out page
// cache, the client's address (TRUST_PROXY), /healthz, the outbox worker, PORT and HOST.
// On Ctrl-C or SIGTERM the server's own stop runs: it finishes requests in flight, closes
// Vite and then the database, which releases the DATA_DIR lock, before exiting.
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "vite";
import { loadSettingsFile } from "./env-file.mjs";
import { refuseUnsupportedNode } from "./node-version.mjs";

refuseUnsupportedNode();

const ROOT = path.resolve(import.meta.dirname, "../..");
process.chdir(ROOT);
loadSettingsFile();
process.env.NODE_ENV ??= "development";

// `npm run dev -- --port 4000 --host 127.0.0.1` overrides PORT and HOST; a bare `--host` listens on every interface.
const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } }, strict: false });
if (typeof values.port === "string") process.env.PORT = values.port;
if (values.host === true) process.env.HOST = "0.0.0.0";
else if (typeof values.host === "string") process.env.HOST = values.host;

// The hot-reload socket shares the site's port rather than opening one of its own.
const server = http.createServer();
const sigtermBefore = new Set(process.listeners("SIGTERM"));
const vite = await createServer({
  root: ROOT,
  appType: "custom",
  server: { middlewareMode: true, hmr: { server } },
});
// A Vite server the React Router plugin starts for itself stops the process on SIGTERM
// (or when stdin ends) without the database: the app's own stop below does both.
for (const listener of process.listeners("SIGTERM")) if (!sigtermBefore.has(listener)) process.off("SIGTERM", listener);
for (const listener of process.stdin.listeners("end")) process.stdin.off("end", listener);
// A stop asked for while Vite loads the app is handled once start() has taken over the signals.
let stopAsked;
const askStop = (signal) => (stopAsked = signal);
process.on("SIGINT", askStop).on("SIGTERM", askStop);
try {
  const app = await vite.environments.ssr.runner.import("/http/start.ts");
  process.off("SIGINT", askStop).off("SIGTERM", askStop);
  await app.start({ development: { vite, server } });
  if (stopAsked) process.kill(process.pid, stopAsked);
} catch (error) {
  console.error(`Hopewell could not start: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  await vite.close().catch(() => {});
  process.exit(1);
}
