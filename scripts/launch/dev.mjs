// `npm run dev`: React Router's development server (what `react-router dev` starts), with
// a clean stop: on Ctrl-C or SIGTERM it closes the dev server and then the database it
// opened, which releases the DATA_DIR lock, before exiting. The plain CLI exits at once
// and leaves the embedded database unclosed and its lock behind.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "vite";

const ROOT = path.resolve(import.meta.dirname, "../..");
process.chdir(ROOT);
if (fs.existsSync(".env")) process.loadEnvFile(".env");
process.env.NODE_ENV ??= "development";

// `npm run dev -- --port 4000 --host` as with `react-router dev`.
const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } }, strict: false });
const host = values.host === true ? true : values.host;
const server = await createServer({ root: ROOT, server: { port: values.port ? Number(values.port) : undefined, host } });
// Vite stops on SIGTERM by itself, without the database; one handler does both below.
process.removeAllListeners("SIGTERM");
await server.listen();
server.printUrls();

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the development server`);
  await server.close().catch((error) => console.error(error));
  // The app keeps its database on globalThis so module reloads share it (db/client.server.ts).
  const holder = globalThis[Symbol.for("hopewell.database")];
  if (holder?.handle) {
    const handle = holder.handle;
    holder.handle = undefined;
    try {
      await (await handle).close();
      console.log("database closed");
    } catch (error) {
      console.error(`closing the database failed: ${error instanceof Error ? error.message : error}`);
    }
  }
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
