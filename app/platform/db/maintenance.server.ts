import { sql } from "drizzle-orm";
import type { Database } from "./handle.server";
import type { TimerJob } from "../jobs.server";
import { logger } from "../logger.server";

/**
 * PostgreSQL's autovacuum keeps table statistics and visibility maps fresh; the embedded
 * database has no background workers, so the server does the same on a timer. Without it
 * the planner would keep judging a grown table by the statistics of an empty one, and
 * choose full scans where the indexes serve better.
 */
export const EMBEDDED_MAINTENANCE_FIRST_MS = 5 * 60_000;
export const EMBEDDED_MAINTENANCE_EVERY_MS = 6 * 60 * 60_000;

export async function maintainEmbeddedDatabase(db: Database): Promise<void> {
  await db.execute(sql`vacuum (analyze)`);
}

/** The embedded database's maintenance, as a background job of the server. */
export function embeddedMaintenanceJob(db: Database): TimerJob {
  return {
    name: "database maintenance",
    firstAfterMs: EMBEDDED_MAINTENANCE_FIRST_MS,
    everyMs: EMBEDDED_MAINTENANCE_EVERY_MS,
    run: async () => {
      const began = performance.now();
      await maintainEmbeddedDatabase(db);
      logger.info({ ms: Math.round(performance.now() - began) }, "database statistics refreshed");
    },
  };
}
