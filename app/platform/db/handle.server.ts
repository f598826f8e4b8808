import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * The open database as the site uses it, whichever engine holds it (client.server.ts opens it;
 * postgres.server.ts for a PostgreSQL server). Apart from client.server.ts so that
 * postgres.server.ts, which it loads on demand, can name these without importing it back.
 */

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Follows a notification channel until the returned function is called; `onLost` when the connection carrying it fails. */
export type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  onLost: (error: unknown) => void,
) => Promise<() => Promise<void>>;

/**
 * Takes a session-level advisory lock on the two keys and holds it for as long as this process
 * runs, or until the returned function lets go: PostgreSQL drops it when the session ends, so
 * other processes can tell from `pg_locks` whether the holder still runs. Undefined when
 * another session holds it. `onLost` when the connection carrying it fails (the lock is gone).
 */
export type HoldLock = (
  keys: readonly [number, number],
  onLost: (error: unknown) => void,
) => Promise<(() => Promise<void>) | undefined>;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  listen: Listen;
  holdLock: HoldLock;
  close: () => Promise<void>;
};
