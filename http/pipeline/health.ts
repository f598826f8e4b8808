import type http from "node:http";
import { sql } from "drizzle-orm";
import { database, databaseHandle, databaseIsHealthy, type Database } from "~/platform/db/client.server";
import { databaseHold, type DatabaseHold } from "~/platform/db/holds.server";
import { logger } from "~/platform/logger.server";

/**
 * Why the database cannot take a write, or undefined when it can. A read answers on a
 * full disk or a read-only database too, so the check writes: one row of the settings
 * table, updated in place (the same row on every instance, so nothing grows).
 */
export async function databaseWriteProblem(db: Database, timeoutMs = 2000): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer to a write within ${timeoutMs} ms`), timeoutMs);
  });
  const write = db
    .execute(
      sql`insert into settings (key, value) values ('health_check', ${new Date().toISOString()}) on conflict (key) do update set value = excluded.value`,
    )
    .then(
      () => undefined,
      (error: unknown) => {
        // drizzle wraps the driver's error; PostgreSQL's own message says what is wrong.
        const cause = (error as { cause?: unknown }).cause ?? error;
        return cause instanceof Error ? cause.message : String(cause);
      },
    );
  try {
    return await Promise.race([write, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let lastProblem: string | undefined;
let lastHold: DatabaseHold | undefined;

/**
 * What holds the embedded database's one connection for long on purpose (an import, a backup):
 * a check would only wait behind it. On PostgreSQL it holds one connection of many, and the
 * check runs on another.
 */
async function embeddedDatabaseHold(): Promise<DatabaseHold | undefined> {
  const hold = databaseHold();
  return hold && (await databaseHandle()).kind === "pglite" ? hold : undefined;
}

/**
 * GET /healthz: 200 while the database answers and takes writes, else 503 with the reason logged.
 * While an import or a backup holds the embedded database, 200 without asking it: the site is
 * busy, pages wait for the work to end, and a supervisor must not restart it in the middle.
 */
export async function serveHealth(res: http.ServerResponse): Promise<void> {
  const hold = await embeddedDatabaseHold();
  if (hold !== lastHold) {
    if (hold)
      logger.info(
        { work: hold.work, since: hold.since.toISOString() },
        "health check: the embedded database is held by long work; answering ok without it",
      );
    lastHold = hold;
  }
  if (hold) {
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end(`ok (busy: ${hold.work} since ${hold.since.toISOString()} holds the database; pages wait until it ends)`);
    return;
  }
  const problem = (await databaseIsHealthy())
    ? await databaseWriteProblem(await database())
    : "the database does not answer";
  if (problem !== lastProblem) {
    // Logged when the state changes, not on every probe of a supervisor.
    if (problem) logger.error({ reason: problem }, "health check failed: the database cannot be written");
    else if (lastProblem) logger.info("health check passes again");
    lastProblem = problem;
  }
  res.writeHead(problem ? 503 : 200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(
    problem
      ? problem === "the database does not answer"
        ? "database unavailable"
        : "database cannot be written"
      : "ok",
  );
}
