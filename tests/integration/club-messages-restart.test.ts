import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { COPY_REASONS } from "~/features/messages/deliver.server";
import { ComposeSchema } from "~/features/messages/messages.form";
import { sendMessage } from "~/features/messages/send.server";
import { closeDatabase, database, openDatabase, rawRows, setDatabase } from "~/platform/db/client.server";
import { attendanceValues, createEvent, createProfile, profileValues } from "~/platform/db/factories";
import { eventAttendance, profiles } from "~/platform/db/schema";
import { withDatabaseName } from "../helpers/database-urls";
import { unpackMigratedDatabase } from "../helpers/db";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { recipients, startSmtpServer } from "../helpers/smtp";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/**
 * The server killed (kill -9) while the mail server holds one member's copy, before it has
 * answered that copy's data: the mail server may have delivered it or not, and the site cannot
 * know. After the restart that member gets no second copy (the copy is "interrupted", with the
 * reason managers read) and everyone else gets theirs, once. On the embedded database and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

const MEMBERS = [
  { firstName: "Ada", lastName: "Able", email: "ada.able@example.com" },
  // Second in the group's order (by last name): its copy is the one in the mail server's hands.
  { firstName: "Bram", lastName: "Baker", email: "bram.baker@example.com" },
  { firstName: "Cora", lastName: "Carter", email: "cora.carter@example.com" },
  { firstName: "Dov", lastName: "Dunn", email: "dov.dunn@example.com" },
];
const HELD = "bram.baker@example.com";

type Place = { DATA_DIR: string } | { DATABASE_URL: string; DATA_DIR: string };

/** Opens the site's database where the server will find it (the test's process holds it only while it writes or reads). */
const openAt = (place: Place) =>
  openDatabase(
    "DATABASE_URL" in place
      ? { databaseUrl: place.DATABASE_URL, dataDir: place.DATA_DIR }
      : { dataDir: place.DATA_DIR },
  );

/** A manager's message to the attendance list of an event with MEMBERS on it, sent as the compose form does. */
async function sendToMembers(place: Place): Promise<string> {
  setDatabase(await openAt(place));
  try {
    const db = await database();
    const manager = await createProfile(db, { role: "manager" });
    const event = await createEvent(db);
    const members = await db
      .insert(profiles)
      .values(MEMBERS.map((member) => profileValues({ role: "player", ...member })))
      .returning();
    await db.insert(eventAttendance).values(members.map((member) => attendanceValues(member.id, event.id)));
    const form = ComposeSchema.parse({
      subject: "Muster at dusk, {first name}",
      body: "Dear {first name},\n\nBring a lantern.",
      audience: "attendance",
      eventId: event.id,
    });
    const outcome = await sendMessage(manager, { ...form, submissionKey: crypto.randomUUID() });
    expect(outcome).toMatchObject({ outcome: "sent", queued: MEMBERS.length });
    return (outcome as { messageId: string }).messageId;
  } finally {
    await closeDatabase();
  }
}

type CopyState = { email: string; status: string; reason: string | null; sent: boolean };
async function copiesAt(place: Place, messageId: string): Promise<CopyState[]> {
  const handle = await openAt(place);
  try {
    return await rawRows<CopyState>(
      handle.db,
      sql`select p.email, r.status, r.reason, r.sent_at is not null as sent from club_message_recipients r
          join profiles p on p.id = r.user_id where r.message_id = ${messageId} order by p.email`,
    );
  } finally {
    await handle.close();
  }
}

async function kill(process: RunningProcess): Promise<void> {
  process.child.kill("SIGKILL");
  await process.exited;
}

async function crashMidSend(place: Place): Promise<void> {
  const messageId = await sendToMembers(place);
  let holding = true;
  const smtp = await startSmtpServer(0, { holdData: (mail) => holding && recipients(mail) === HELD });
  const env = { ...place, HOST: "127.0.0.1", SMTP_URL: smtp.url, OUTBOX_POLL_MS: "100", MESSAGES_PER_MINUTE: "6000" };
  try {
    const first = await startBuiltServer(env);
    try {
      await smtp.waitForDataHeld(1, 30_000);
    } finally {
      await kill(first.server);
    }
    expect(smtp.messages.map(recipients)).toEqual(["ada.able@example.com"]);
    // Whatever the mail server did with the held copy, it is counted as delivered.
    holding = false;

    const second = await startBuiltServer(env);
    const began = performance.now();
    try {
      for (const email of ["cora.carter@example.com", "dov.dunn@example.com"])
        await smtp.waitForMessage((mail) => recipients(mail) === email, 20_000);
      console.log(`the rest sent ${Math.round(performance.now() - began)} ms after the restarted server was running`);
      // A few more rounds (100 ms each): nothing more goes out.
      await sleep(600);
    } finally {
      second.server.child.kill("SIGTERM");
      await second.server.exited;
    }
  } finally {
    await smtp.close();
  }
  const received = [...smtp.messages, ...smtp.dataHeld].map(recipients).sort();
  expect(received).toEqual(MEMBERS.map((member) => member.email).sort());
  expect(await copiesAt(place, messageId)).toEqual([
    { email: "ada.able@example.com", status: "sent", reason: null, sent: true },
    { email: HELD, status: "interrupted", reason: COPY_REASONS.interrupted, sent: false },
    { email: "cora.carter@example.com", status: "sent", reason: null, sent: true },
    { email: "dov.dunn@example.com", status: "sent", reason: null, sent: true },
  ]);
}

describe.skipIf(postgresUrl)("a crash mid-send, on the embedded database", () => {
  it("sends no member a second copy: the one with the mail server is interrupted, the rest are sent once", async () => {
    // Migrated already (PGlite's initdb costs seconds): this is about the restart, not a first start.
    const dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-messages-restart-")));
    try {
      await crashMidSend({ DATA_DIR: dataDir });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(!postgresUrl)("a crash mid-send, on PostgreSQL", () => {
  it("sends no member a second copy: the one with the mail server is interrupted, the rest are sent once", async () => {
    const databaseName = `hopewell_messages_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-messages-restart-"));
    try {
      await crashMidSend({ DATABASE_URL: withDatabaseName(postgresUrl!, databaseName), DATA_DIR: dataDir });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  }, 180_000);
});
