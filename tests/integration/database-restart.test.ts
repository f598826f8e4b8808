import crypto, { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAccount, signIn } from "~/features/accounts/accounts.server";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { withDatabaseName } from "../helpers/database-urls";
import { postForm } from "../helpers/forms";
import { freePort } from "../helpers/ports";
import { run, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/**
 * The production server on PostgreSQL while the database drops every one of its connections
 * (a restart, a failover, an operator's pg_terminate_backend), round after round, with pages
 * and letters in flight. The process must live through it: what was in flight may fail, the
 * next requests connect again, and every write the site acknowledged is in the database.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url)
  console.log("Skipping the database-restart test: it needs PostgreSQL (set TEST_DATABASE_URL, as .ci/run does).");

const PASSWORD = "Lantern#1877";
const APP_NAME = "hopewell-restart";
const ROUNDS = 6;
const LOAD_LOOPS = 8;
/** How long the site may take to answer 200 again after its connections were cut. */
const RECOVERY_MS = 5_000;

describe.skipIf(!url)("the server while PostgreSQL drops its connections", () => {
  const databaseName = `hopewell_restart_${crypto.randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let databaseUrl = "";
  let dataDir = "";
  let server: RunningProcess;
  let site = "";

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    databaseUrl = withDatabaseName(url!, databaseName);
    // The test's own connections (to make a member) carry no application name: only the server's are cut.
    setDatabase(await openDatabase({ databaseUrl, dataDir: os.tmpdir() }));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-restart-"));
    const port = await freePort();
    server = run(process.execPath, ["server.mjs"], {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // Names the server's connections, so the test cuts those and no others.
      PGAPPNAME: APP_NAME,
      LISTEN_HEARTBEAT_MS: "1000",
      LOG_LEVEL: "warn",
    });
    await server.waitFor(/running at http:\/\//, 60_000);
    site = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await closeDatabase();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }, 60_000);

  const alive = () => server.child.exitCode === null && server.child.signalCode === null;
  const tail = () => server.output().slice(-4_000);

  /** Cuts every connection the server holds, as a restart of PostgreSQL does: how many there were. */
  async function cutConnections(): Promise<number> {
    const { rows } = await admin.query<{ cut: boolean }>(
      "select pg_terminate_backend(pid) as cut from pg_stat_activity where datname = $1 and application_name = $2",
      [databaseName, APP_NAME],
    );
    return rows.filter((row) => row.cut).length;
  }

  /** Milliseconds until `pathname` answers 200 again, or Infinity after `RECOVERY_MS`. */
  async function recovery(pathname: string, cookie: string): Promise<number> {
    const began = Date.now();
    while (Date.now() - began < RECOVERY_MS) {
      const status = await fetch(site + pathname, {
        headers: { Cookie: cookie },
        redirect: "manual",
        signal: AbortSignal.timeout(RECOVERY_MS),
      }).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return Date.now() - began;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Infinity;
  }

  it("lives through it, answers again within seconds, and keeps every write it acknowledged", async () => {
    const email = `restart-${Date.now()}@example.com`;
    const created = await createAccount({ firstName: "Restart", lastName: "Player", email, password: PASSWORD });
    if (!created.ok) throw new Error(created.message);
    const session = await signIn({ email, password: PASSWORD }, new Request(`${site}/auth`), "198.51.100.210");
    if (!session.ok) throw new Error(session.message);
    const cookie = session.setCookies.map((c) => c.split(";")[0]).join("; ");
    expect((await fetch(`${site}/letters`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);

    // Page loads and letters (each one written in a transaction) from several clients at once.
    const acknowledged: string[] = [];
    const statuses = new Map<string, number>();
    let loading = true;
    const pages = ["/", "/events", "/letters", "/profile", "/rulebook"];
    async function loop(n: number) {
      for (let i = 0; loading; i++) {
        let status = "no answer";
        if (i % 3 === n % 3) {
          const key = randomUUID();
          const response = await postForm(
            site,
            "/letters",
            { submissionKey: key, recipient: "The Sheriff", body: `Letter ${key}: the lamps went out at the mill.` },
            cookie,
          ).catch(() => undefined);
          if (response) {
            await response.arrayBuffer().catch(() => {});
            status = `POST ${response.status}`;
            if (response.status < 400) acknowledged.push(key);
          }
        } else {
          const pathname = pages[(i + n) % pages.length]!;
          const response = await fetch(site + pathname, {
            headers: { Cookie: cookie },
            redirect: "manual",
            signal: AbortSignal.timeout(15_000),
          }).catch(() => undefined);
          if (response) {
            await response.arrayBuffer().catch(() => {});
            status = `GET ${response.status}`;
          }
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
    const load = Array.from({ length: LOAD_LOOPS }, (_, n) => loop(n));

    const recoveries: number[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        await new Promise((resolve) => setTimeout(resolve, 800));
        const cut = await cutConnections();
        expect(cut, `round ${round}: the server held no connection to cut`).toBeGreaterThan(0);
        // A moment for the cut connections' errors to reach the process.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(alive(), `the server exited in round ${round}:\n${tail()}`).toBe(true);
        const ms = await recovery("/letters", cookie);
        expect(ms, `round ${round}: no 200 within ${RECOVERY_MS} ms:\n${tail()}`).toBeLessThan(RECOVERY_MS);
        recoveries.push(ms);
      }
    } finally {
      loading = false;
      await Promise.all(load);
    }
    expect(alive(), `the server exited under load:\n${tail()}`).toBe(true);
    const lostInUse = server.output().match(/PostgreSQL connection in use failed/g)?.length ?? 0;
    console.log(
      `recovered after ${recoveries.join(", ")} ms; ${lostInUse} connections lost in use; answers: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    // Every letter the site said was sent is there, once.
    expect(acknowledged.length).toBeGreaterThan(10);
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      const { rows } = await check.query<{ key: string }>(
        "select submission_key::text as key from letters where submission_key = any($1::uuid[])",
        [acknowledged],
      );
      const saved = new Set(rows.map((row) => row.key));
      expect(acknowledged.filter((key) => !saved.has(key))).toEqual([]);
    } finally {
      await check.end();
    }

    // The change announcements came back too: a LISTEN connection of the server's is open again.
    expect(server.output()).toMatch(/lost the database's change announcements/);
    let listening = 0;
    for (let tries = 0; tries < 50 && listening === 0; tries++) {
      const { rows } = await admin.query(
        "select 1 from pg_stat_activity where datname = $1 and application_name = $2 and (query ilike 'listen %' or query = 'select pg_notify($1, $2)')",
        [databaseName, APP_NAME],
      );
      listening = rows.length;
      if (listening === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(listening).toBe(1);
  }, 120_000);
});
