import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { logger } from "../logger.server";

/**
 * What the child process runs, as an ES module: it resolves packages from the working directory,
 * the site's folder, as the server and its migrations do (a copy of the build has no sources to
 * run). Its extensions are client.server.ts's PGLITE_EXTENSIONS.
 */
const CREATE_DATABASE = `
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
const [pgdata, migrationsFolder] = process.argv.slice(1);
const client = await PGlite.create({ dataDir: pgdata, extensions: { pg_trgm } });
try {
  await migrate(drizzle(client), { migrationsFolder });
} finally {
  await client.close();
}
`;

/**
 * The folder of the data directory's embedded database. When it holds none yet (PostgreSQL writes
 * PG_VERSION when it makes one), a new one is made and migrated there first, in a short-lived
 * child process. PGlite's
 * WebAssembly memory grows to what making a database takes and never shrinks: a server that made
 * its own held about 780 MB until its next restart, against about 230 MB for one that opens a
 * database made before. The child gives its memory back when it ends.
 */
export async function embeddedDatabaseFolder(dataDir: string, migrationsFolder: string): Promise<string> {
  const pgdata = path.join(dataDir, "pgdata");
  if (fs.existsSync(path.join(pgdata, "PG_VERSION"))) return pgdata;
  const startedAt = performance.now();
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", CREATE_DATABASE, pgdata, path.resolve(migrationsFolder)],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0)
    throw new Error(`Making the new database in ${pgdata} failed${stderr.trim() ? `: ${stderr.trim()}` : ""}`);
  logger.info({ ms: Math.round(performance.now() - startedAt) }, "new embedded database made");
  return pgdata;
}
