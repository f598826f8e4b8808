import type http from "node:http";
import { sql } from "drizzle-orm";
import { database, databaseIsHealthy, type Database } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";

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
    .execute(sql`insert into settings (key, value) values ('health_check', ${new Date().toISOString()}) on conflict (key) do update set value = excluded.value`)
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

/** GET /healthz: 200 while the database answers and takes writes, else 503 with the reason logged. */
export async function serveHealth(res: http.ServerResponse): Promise<void> {
  const problem = (await databaseIsHealthy()) ? await databaseWriteProblem(await database()) : "the database does not answer";
  if (problem !== lastProblem) {
    // Logged when the state changes, not on every probe of a supervisor.
    if (problem) logger.error({ reason: problem }, "health check failed: the database cannot be written");
    else if (lastProblem) logger.info("health check passes again");
    lastProblem = problem;
  }
  res.writeHead(problem ? 503 : 200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(problem ? (problem === "the database does not answer" ? "database unavailable" : "database cannot be written") : "ok");
}
