import crypto from "node:crypto";
import os from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/platform/db/client.server";
import { withDatabaseName } from "../helpers/database-urls";

/**
 * The site's pool of PostgreSQL connections when one it lent out dies (a restart, a
 * failover, pg_terminate_backend): the process carries on, and the pool drops the dead
 * connection even when its holder never gives it back.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url)
  console.log("Skipping the lost-connection tests: they need PostgreSQL (set TEST_DATABASE_URL, as .ci/run does).");

describe.skipIf(!url)("a pooled PostgreSQL connection lost while in use", () => {
  const databaseName = `hopewell_lost_${crypto.randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    handle = await openDatabase({ databaseUrl: withDatabaseName(url!, databaseName), dataDir: os.tmpdir() });
  });

  afterAll(async () => {
    // A pool still holding lost connections never finishes closing: the database is dropped regardless.
    await Promise.race([handle?.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });

  it("is dropped from the pool though never released, so the pool never runs out", async () => {
    // Drizzle's own handle on the pool openDatabase made.
    const pool = (handle!.db as unknown as { $client: pg.Pool }).$client;
    // More than the pool holds (10): each one lost and kept counted would leave the last ones waiting for good.
    for (let i = 0; i < 12; i++) {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
      const dropped = new Promise((resolve) => pool.once("remove", resolve));
      await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
      await Promise.race([dropped, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      // Never released by its holder, as when drizzle's transaction fails at its BEGIN (it releases only after).
    }
    const answer = pool.query<{ one: number }>("select 1 as one");
    const stuck = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("the pool has no connection left to give")), 5_000),
    );
    expect((await Promise.race([answer, stuck])).rows[0]!.one).toBe(1);
    expect(pool.totalCount).toBeLessThanOrEqual(1);
  });

  it("fails a transaction cut between its queries, and its holder's release is harmless", async () => {
    const db = handle!.db;
    const failed = db.transaction(async (tx) => {
      const { rows } = (await tx.execute("select pg_backend_pid() as pid")) as unknown as { rows: { pid: number }[] };
      await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
      // A moment for the news to arrive while the transaction holds the connection, between queries.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.execute("select 1");
    });
    await expect(failed).rejects.toThrow();
    // The next one gets a new connection.
    const again = (await db.execute("select 2 as two")) as unknown as { rows: { two: number }[] };
    expect(again.rows[0]!.two).toBe(2);
  });
});
