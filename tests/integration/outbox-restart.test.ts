import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { openDatabase, rawRows, type DatabaseHandle } from "~/platform/db/client.server";
import { passwordResetEmail } from "~/platform/mail/templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { withDatabaseName } from "../helpers/database-urls";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort } from "../helpers/ports";
import { run, startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { startSmtpServer } from "../helpers/smtp";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/**
 * A server stopped in the middle of sending (killed, or the machine restarted) leaves the
 * message it was sending leased to it. The next server, or on PostgreSQL another instance,
 * takes it back at once, not after the lease's five minutes, and never takes a message from an
 * instance that still runs.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const SUBJECT = "Reset your Hopewell password";
const resetEmail = (to: string) =>
  passwordResetEmail({ to, firstName: "Ada", link: "http://localhost/reset-password/abc" });

type OutboxState = { status: string; attempts: number; leased_by: number | null };
async function outboxRows(handle: DatabaseHandle): Promise<OutboxState[]> {
  return rawRows<OutboxState>(handle.db, sql`select status, attempts, leased_by from outbox`);
}

async function kill(process: RunningProcess): Promise<void> {
  process.child.kill("SIGKILL");
  await process.exited;
}

describe.skipIf(postgresUrl)("a restart on the embedded database", () => {
  it("sends at once the message the killed server was sending", async () => {
    // Migrated already (PGlite's initdb costs seconds): this is about the restart, not a first start.
    const dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-outbox-restart-")));
    let hanging = true;
    const smtp = await startSmtpServer(0, { hang: () => hanging });
    try {
      const before = await openDatabase({ dataDir });
      await queueEmail(before.db, resetEmail("restart@example.com")).finally(() => before.close());
      const env = { DATA_DIR: dataDir, HOST: "127.0.0.1", SMTP_URL: smtp.url, OUTBOX_POLL_MS: "200" };

      // The first server takes the message and waits on the hung SMTP server when it is killed.
      const first = await startBuiltServer(env);
      await smtp.waitForHeld(1).finally(() => kill(first.server));
      hanging = false;

      const second = await startBuiltServer(env);
      const began = performance.now();
      try {
        await smtp.waitForMessage((mail) => mail.subject === SUBJECT, 20_000);
        console.log(`sent ${Math.round(performance.now() - began)} ms after the restarted server was running`);
      } finally {
        second.server.child.kill("SIGTERM");
        await second.server.exited;
      }
      expect(smtp.messages.filter((mail) => mail.subject === SUBJECT)).toHaveLength(1);
      const after = await openDatabase({ dataDir });
      // The killed attempt never finished, so it is not counted.
      expect(await outboxRows(after).finally(() => after.close())).toEqual([
        { status: "sent", attempts: 1, leased_by: null },
      ]);
    } finally {
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(!postgresUrl)("two instances on PostgreSQL", () => {
  it("one takes over at once what a killed one was sending, and never what a running one holds", async () => {
    const databaseName = `hopewell_restart_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    const databaseUrl = withDatabaseName(postgresUrl!, databaseName);
    const handle = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
    let hanging = true;
    const smtp = await startSmtpServer(0, { hang: () => hanging });
    const dataDirs: string[] = [];
    const instances = new Map<string, RunningProcess>();
    const start = async (name: string) => {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-outbox-${name}-`));
      dataDirs.push(dataDir);
      const child = run(process.execPath, ["server.mjs"], {
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        // Names the instance's connections, so the test can tell which one holds the message.
        PGAPPNAME: `hopewell-${name}`,
        SMTP_URL: smtp.url,
        OUTBOX_POLL_MS: "100",
        // A failed attempt is not retried within the test: only a lease taken back can send it.
        OUTBOX_RETRY_BASE_MS: "600000",
      });
      instances.set(name, child);
      await child.waitFor(/running at http:\/\//, 60_000);
    };
    try {
      await Promise.all([start("a"), start("b")]);
      await queueEmail(handle.db, resetEmail("takeover@example.com"));
      await smtp.waitForHeld(1);
      // The lease names its owner's lock, and PostgreSQL the session holding that lock.
      const [holder] = await rawRows<{ name: string }>(
        handle.db,
        sql`select activity.application_name as name from outbox
            join pg_locks on pg_locks.locktype = 'advisory' and pg_locks.objsubid = 2 and pg_locks.objid = outbox.leased_by::oid
            join pg_stat_activity as activity on activity.pid = pg_locks.pid`,
      );
      expect(holder?.name).toMatch(/^hopewell-[ab]$/);
      // The other instance's rounds (every 100 ms) leave a running instance's message alone.
      await sleep(1_500);
      expect(smtp.held).toBe(1);
      expect(smtp.messages).toHaveLength(0);

      hanging = false;
      const killed = instances.get(holder!.name.replace("hopewell-", ""))!;
      await kill(killed);
      const began = performance.now();
      await smtp.waitForMessage((mail) => mail.subject === SUBJECT, 15_000);
      console.log(`sent by the other instance ${Math.round(performance.now() - began)} ms after the holder was killed`);
      await sleep(500);
      expect(smtp.messages.filter((mail) => mail.subject === SUBJECT)).toHaveLength(1);
      expect(await outboxRows(handle)).toEqual([{ status: "sent", attempts: 1, leased_by: null }]);
    } finally {
      for (const child of instances.values()) {
        child.child.kill("SIGTERM");
        await child.exited;
      }
      await smtp.close();
      await handle.close();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  }, 180_000);
});
