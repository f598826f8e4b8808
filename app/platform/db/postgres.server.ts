import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { config } from "../config.server";
import { logger } from "../logger.server";
import type { Database, DatabaseHandle, HoldLock, Listen } from "./handle.server";
import { explainDatabaseError } from "./connect-errors.server";
import * as schema from "./schema";

/**
 * The site on a PostgreSQL server (DATABASE_URL): its pool, its migrations, and the connections
 * of its own that notifications and session locks need. Loaded by `openDatabase` only then.
 */
export async function openPostgres(databaseUrl: string, migrationsFolder: string | null): Promise<DatabaseHandle> {
  const pool = createPool(databaseUrl);
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  // Several app instances may start together: one migrates while the others wait. Without
  // migrations, one query still says at once whether the server can be reached.
  try {
    if (migrationsFolder === null) await pool.query("select 1");
    else await migrateOnce(pool, migrationsFolder);
  } catch (error) {
    await pool.end().catch(() => {});
    // drizzle wraps the driver's error in its own ("Failed query: ..."), the cause being PostgreSQL's.
    const cause = (error as { cause?: unknown }).cause ?? error;
    const explained = explainDatabaseError(cause, databaseUrl);
    throw explained === cause ? error : explained;
  }
  return {
    db,
    kind: "postgres",
    listen: postgresListener(databaseUrl),
    holdLock: postgresLockHolder(databaseUrl),
    close: () => pool.end(),
  };
}

/** Applies pending migrations while holding a session lock, so instances starting together take turns. */
async function migrateOnce(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(727001)");
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(727001)").catch(() => {});
    client.release();
  }
}

/**
 * The pool of connections to PostgreSQL. A connection can die under the site (a restart, a
 * failover, an operator ending it), and pg reports that as an 'error' event on its client: an
 * 'error' event with no listener stops the process. The pool listens to its idle clients (and
 * reports them: its own 'error' event), not to one checked out (for a transaction, between its
 * queries), so each client gets a listener of its own here. A client lost while checked out
 * goes back to the pool at once, which drops it: drizzle releases a transaction's client only
 * after its BEGIN worked, so one lost before that would stay counted against the pool for
 * good, and enough of them would leave every request waiting. Its holder's next query fails
 * (that request answers with an error); the next requests get new connections.
 */
function createPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on("error", (error) => logger.error({ err: error }, "idle PostgreSQL connection failed"));
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      if (!checkedOut.has(client)) return;
      logger.error({ err: error }, "PostgreSQL connection in use failed");
      const release = client.release;
      // The holder's own release, when it comes, finds nothing left to do (a second one would throw).
      client.release = () => {};
      release(error);
    });
  });
  return pool;
}

/**
 * A session lock needs a connection of its own: a pooled one is closed when idle, and its
 * lock with it, while the process still runs.
 */
export function postgresLockHolder(databaseUrl: string): HoldLock {
  return async ([first, second], onLost) => {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until the lock is held, a failure is the caller's rejection, not also a lost lock.
    let closing = true;
    const lost = (error: unknown) => {
      if (closing) return;
      closing = true;
      client.end().catch(() => {});
      onLost(error);
    };
    client.on("error", lost);
    client.on("end", () => lost(new Error("the lock's connection closed")));
    let held = false;
    try {
      await client.connect();
      const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1, $2) as held", [
        first,
        second,
      ]);
      held = rows[0]?.held === true;
    } finally {
      if (!held) await client.end().catch(() => {});
    }
    if (!held) return undefined;
    closing = false;
    return async () => {
      closing = true;
      await client.end();
    };
  };
}

/** The payload of the notifications a listener sends itself to know its connection still works. */
const HEARTBEAT = "hopewell:heartbeat";
/**
 * LISTEN needs a connection of its own: a pooled one is shared between queries.
 * A connection can also die without a word (a NAT's idle timeout, a failover, a network
 * cut): nothing then says announcements stopped, and kept copies would be trusted for ever.
 * So the listener notifies itself every `heartbeatMs`; when one has not come back by the
 * next, the connection counts as lost.
 */
export function postgresListener(databaseUrl: string): Listen {
  return async (channel, onNotify, onLost) => {
    // A silent connection is noticed within twice this.
    const heartbeatMs = config().listenHeartbeatMs;
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    // Until LISTEN has worked, a failure is the caller's rejection, not also a lost connection
    // (a refused connection also ends the client): reporting both doubled the retries each time.
    let closing = true;
    const timer: { heartbeat?: NodeJS.Timeout } = {};
    let awaitingBeat = false;
    const lost = (error: unknown) => {
      if (closing) return;
      closing = true;
      clearInterval(timer.heartbeat);
      client.end().catch(() => {});
      onLost(error);
    };
    client.on("notification", (message) => {
      if (message.channel !== channel) return;
      if (message.payload === HEARTBEAT) awaitingBeat = false;
      else onNotify(message.payload ?? "");
    });
    client.on("error", lost);
    client.on("end", () => lost(new Error("the notification connection closed")));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    closing = false;
    timer.heartbeat = setInterval(() => {
      if (awaitingBeat) return lost(new Error(`no answer on the notification connection for ${heartbeatMs} ms`));
      awaitingBeat = true;
      client.query("select pg_notify($1, $2)", [channel, HEARTBEAT]).catch(lost);
    }, heartbeatMs);
    timer.heartbeat.unref();
    return async () => {
      closing = true;
      clearInterval(timer.heartbeat);
      await client.end();
    };
  };
}
