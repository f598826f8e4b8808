import crypto, { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SITE_MESSAGES } from "~/web/forms/messages";
import type { Role } from "~/game/roles";
import { createAccount, signIn } from "~/features/accounts/accounts.server";
import { closeDatabase, openDatabase, setDatabase, type Database } from "~/platform/db/client.server";
import { createEvent } from "~/platform/db/factories";
import { SESSION_ANSWER_MAX_AGE_MS } from "~/identity/session.server";
import { profiles, research } from "~/platform/db/schema";
import { solvedCaptcha } from "../helpers/captcha";
import { withDatabaseName } from "../helpers/database-urls";
import { postForm, validApplication } from "../helpers/forms";
import { freePort } from "../helpers/ports";
import { run, type RunningProcess } from "../helpers/processes";
import { startS3Server } from "../helpers/s3";
import { startSmtpServer } from "../helpers/smtp";
import { startPostgresProxy } from "../helpers/tcp-proxy";
import { startWebhookServer } from "../helpers/webhook";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/**
 * Two app processes from the production build on one PostgreSQL database, with files in
 * a local S3-compatible server: what one does, the other honours on its very next request.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url)
  console.log("Skipping the two-instance tests: they need PostgreSQL (set TEST_DATABASE_URL, as .ci/run does).");

const PASSWORD = "Lantern#1877";
const HEARTBEAT_MS = 2_000;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

type Instance = { name: string; url: string; process: RunningProcess; dataDir: string };

describe.skipIf(!url)("two app instances on one PostgreSQL database", () => {
  const databaseName = `hopewell_two_${crypto.randomBytes(4).toString("hex")}`;
  let databaseUrl = "";
  let admin: pg.Client;
  let db: Database;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let webhook: Awaited<ReturnType<typeof startWebhookServer>>;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let proxy: Awaited<ReturnType<typeof startPostgresProxy>>;
  let a: Instance;
  let b: Instance;
  let members = 0;

  async function startInstance(name: string, connectTo = databaseUrl): Promise<Instance> {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-two-${name}-`));
    const child = run(process.execPath, ["server.mjs"], {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: connectTo,
      // Names this instance's database connections, so the test can find its LISTEN connection.
      PGAPPNAME: `hopewell-${name}`,
      SMTP_URL: smtp.url,
      DISCORD_WEBHOOK_URL: webhook.url,
      OUTBOX_POLL_MS: "100",
      LISTEN_HEARTBEAT_MS: String(HEARTBEAT_MS),
      // What one instance learns of the other's writes is tested here with password sessions; the
      // managers' second-factor gate has its own tests (tests/features/two-factor/two-factor.test.ts, route-access).
      REQUIRE_MANAGER_2FA: "false",
      ...s3.env,
    });
    await child.waitFor(/running at http:\/\//, 60_000);
    return { name, url: `http://127.0.0.1:${port}`, process: child, dataDir };
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    databaseUrl = withDatabaseName(url!, databaseName);
    const handle = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
    setDatabase(handle);
    db = handle.db;
    const server = new URL(databaseUrl);
    [smtp, webhook, s3, proxy] = await Promise.all([
      startSmtpServer(),
      startWebhookServer(),
      startS3Server(),
      startPostgresProxy({ host: server.hostname, port: Number(server.port || 5432) }),
    ]);
    // Instance b reaches the database through a proxy that can silence its connections.
    const throughProxy = new URL(databaseUrl);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    [a, b] = await Promise.all([startInstance("a"), startInstance("b", throughProxy.toString())]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      instance.process.child.kill("SIGTERM");
      await instance.process.exited;
      fs.rmSync(instance.dataDir, { recursive: true, force: true });
    }
    await Promise.all([smtp?.close(), webhook?.close(), s3?.close(), proxy?.close()]);
    await closeDatabase();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }, 60_000);

  /** A member of `role`, signed in through instance `via` as a browser would: returns the Cookie header. */
  async function member(role: Role, via: Instance) {
    const n = ++members;
    const email = `two-${role}-${n}-${Date.now()}@example.com`;
    const created = await createAccount({ firstName: `Two${n}`, lastName: role, email, password: PASSWORD });
    if (!created.ok) throw new Error(created.message);
    const [profile] = await db
      .update(profiles)
      .set({ role })
      .where(eq(profiles.email, email))
      .returning({ id: profiles.id });
    const response = await postForm(via.url, "/auth", {
      intent: "signin",
      email,
      password: PASSWORD,
      altcha: await solvedCaptcha(),
    });
    expect(response.status, await response.clone().text()).toBe(302);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { id: profile!.id, email, cookie };
  }

  const get = (instance: Instance, pathname: string, cookie: string) =>
    fetch(instance.url + pathname, { headers: { Cookie: cookie }, redirect: "manual" });
  const signedIn = async (instance: Instance, cookie: string) =>
    (await get(instance, "/profile", cookie)).status === 200;
  const mayUseTools = async (instance: Instance, cookie: string) =>
    (await get(instance, "/tools", cookie)).status === 200;

  /** The process id of `instance`'s LISTEN connection, once it has one. */
  async function listenerOf(instance: Instance): Promise<number> {
    for (let tries = 0; tries < 100; tries++) {
      const { rows } = await admin.query<{ pid: number }>(
        // Its last query is the LISTEN, or the heartbeat it sends itself.
        "select pid from pg_stat_activity where datname = $1 and application_name = $2 and (query ilike 'listen %' or query = 'select pg_notify($1, $2)')",
        [databaseName, `hopewell-${instance.name}`],
      );
      if (rows.length === 1) return rows[0]!.pid;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`instance ${instance.name} has no LISTEN connection`);
  }

  async function signOutAndDemote(changer: Instance, observer: Instance) {
    const manager = await member("manager", changer);
    const player = await member("player", changer);
    const cast = await member("cast", changer);
    // The observer has just read both sessions (and keeps them in memory).
    expect(await signedIn(observer, player.cookie)).toBe(true);
    expect(await mayUseTools(observer, cast.cookie)).toBe(true);
    return { manager, player, cast };
  }

  async function expectHonoured(
    changer: Instance,
    observer: Instance,
    people: Awaited<ReturnType<typeof signOutAndDemote>>,
  ) {
    const { manager, player, cast } = people;
    expect((await postForm(changer.url, "/logout", {}, player.cookie)).status).toBe(302);
    const demoted = await postForm(
      changer.url,
      "/tools?tab=roles",
      { intent: "role", userId: cast.id, role: "player", confirm: "yes" },
      manager.cookie,
    );
    expect(demoted.status).toBeLessThan(400);
    expect(await signedIn(observer, player.cookie)).toBe(false);
    expect(await mayUseTools(observer, cast.cookie)).toBe(false);
    expect((await get(observer, "/tools", cast.cookie)).headers.get("Location")).toBe("/");
  }

  it("honours a sign-out or a role change made on the other instance at the next request", async () => {
    const people = await signOutAndDemote(a, b);
    await expectHonoured(a, b, people);
  });

  it("still does after the other's notification connection was cut, and once it is back", async () => {
    const people = await signOutAndDemote(a, b);
    const listener = await listenerOf(b);
    await admin.query("select pg_terminate_backend($1)", [listener]);
    // No pause: the changes land while instance b is without its announcements.
    await expectHonoured(a, b, people);
    expect(b.process.output()).toMatch(/lost the database's change announcements/);

    // Once reconnected, kept sessions are used again and changes still reach them.
    expect(await listenerOf(b)).not.toBe(listener);
    const again = await signOutAndDemote(a, b);
    await expectHonoured(a, b, again);
  });

  it("stops trusting what it kept when its notification connection goes silent without a word", async () => {
    const people = await signOutAndDemote(a, b);
    expect(proxy.freezeListeners()).toBe(1);
    const { manager, player, cast } = people;
    expect((await postForm(a.url, "/logout", {}, player.cookie)).status).toBe(302);
    expect(
      (
        await postForm(
          a.url,
          "/tools?tab=roles",
          { intent: "role", userId: cast.id, role: "player", confirm: "yes" },
          manager.cookie,
        )
      ).status,
    ).toBeLessThan(400);
    // No announcement can arrive now: the instance must notice within two heartbeats.
    const began = Date.now();
    while ((await signedIn(b, player.cookie)) && Date.now() - began < 30_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const noticedMs = Date.now() - began;
    expect(noticedMs).toBeLessThan(2 * HEARTBEAT_MS + 5_000);
    expect(await signedIn(b, player.cookie)).toBe(false);
    expect(await mayUseTools(b, cast.cookie)).toBe(false);
    expect(b.process.output()).toMatch(/lost the database's change announcements/);
    // It reconnects (through the proxy, which lets new connections flow) and keeps sessions again.
    const again = await signOutAndDemote(a, b);
    await listenerOf(b);
    await expectHonoured(a, b, again);
  }, 90_000);

  it("applies a role change it was never told of once its kept copy is older than the time limit", async () => {
    // Signed in here rather than over HTTP: the other tests use up this address's sign-ins.
    const email = `two-kept-${Date.now()}@example.com`;
    const created = await createAccount({ firstName: "Kept", lastName: "cast", email, password: PASSWORD });
    if (!created.ok) throw new Error(created.message);
    const [castProfile] = await db
      .update(profiles)
      .set({ role: "cast" })
      .where(eq(profiles.email, email))
      .returning({ id: profiles.id });
    const session = await signIn({ email, password: PASSWORD }, new Request(`${a.url}/auth`), "198.51.100.200");
    if (!session.ok) throw new Error(session.message);
    const cast = { id: castProfile!.id, cookie: session.setCookies.map((c) => c.split(";")[0]).join("; ") };
    expect(await mayUseTools(b, cast.cookie)).toBe(true);
    // Written where no announcement is made (as when one is lost on the way): only the time limit tells.
    await db.execute(sql`alter table profiles disable trigger profiles_announce_change`);
    try {
      await db.update(profiles).set({ role: "player" }).where(eq(profiles.id, cast.id));
    } finally {
      await db.execute(sql`alter table profiles enable trigger profiles_announce_change`);
    }
    const began = Date.now();
    // Instance b kept what it read a moment ago: it may use it, but only for so long.
    while ((await mayUseTools(b, cast.cookie)) && Date.now() - began < 30_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(Date.now() - began).toBeLessThan(SESSION_ANSWER_MAX_AGE_MS + 2_000);
    expect(await mayUseTools(b, cast.cookie)).toBe(false);
    expect(await mayUseTools(a, cast.cookie)).toBe(false);
  }, 60_000);

  it("sends an email and a chat notice exactly once though both instances deliver", async () => {
    const reader = await member("player", a);
    const reset = await postForm(a.url, "/forgot-password", { email: reader.email, altcha: await solvedCaptcha() });
    expect(reset.status).toBeLessThan(400);
    const mail = await smtp.waitForMessage((m) => m.to !== undefined && JSON.stringify(m.to).includes(reader.email));
    expect(mail.subject).toBeTruthy();

    const applicant = await member("applicant", b);
    expect((await postForm(b.url, "/application", validApplication(), applicant.cookie)).status).toBeLessThan(400);
    const deadline = Date.now() + 15_000;
    while (
      !webhook.accepted.some((post) => String(post.body.content).includes("A new application")) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Both workers poll every 100 ms: a few seconds is many chances to send a copy.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(reader.email))).toHaveLength(1);
    expect(webhook.requests.filter((post) => String(post.body.content).includes("A new application"))).toHaveLength(1);
  });

  it("counts sign-in attempts across both instances", async () => {
    const target = await member("player", a);
    // Only wrong attempts count: ten wrong passwords, alternating between the instances, make
    // the account's ten.
    for (let i = 0; i < 10; i++) {
      const via = i % 2 === 0 ? a : b;
      const response = await postForm(via.url, "/auth", {
        intent: "signin",
        email: target.email,
        password: "Wrong#0000",
        altcha: await solvedCaptcha(),
      });
      expect(response.status, `attempt ${i + 1} via ${via.name}: ${await response.clone().text()}`).toBe(401);
    }
    // Each instance alone has seen five; together they have seen ten, so even the right password waits.
    for (const via of [a, b]) {
      const response = await postForm(via.url, "/auth", {
        intent: "signin",
        email: target.email,
        password: PASSWORD,
        altcha: await solvedCaptcha(),
      });
      expect(response.status).toBe(429);
      expect(await response.text()).toContain(SITE_MESSAGES.tooManySignIns);
    }
  });

  it("shows the FAQ a manager saves on one instance on the other's signed-out home page within 2 seconds", async () => {
    const before = await (await fetch(`${b.url}/`)).text();
    expect(before).not.toContain("Where do I park the wagon?");
    const manager = await member("manager", a);
    const saved = await postForm(
      a.url,
      "/tools/club/faq",
      {
        intent: "save",
        version: "0",
        count: "1",
        "id-0": "",
        "question-0": "Where do I park the wagon?",
        "answer-0": "Behind the *livery*.",
        "position-0": "1",
      },
      manager.cookie,
    );
    expect(await saved.text()).toContain("Saved: the FAQ is now version 1.");
    const savedAt = Date.now();
    let html = "";
    while (Date.now() - savedAt < 2_000 && !html.includes("Where do I park the wagon?")) {
      html = await (await fetch(`${b.url}/`)).text();
      if (!html.includes("Where do I park the wagon?")) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(html).toContain("Behind the <em>livery</em>.");
  });

  it("serves a research file uploaded through one instance from the other", async () => {
    const author = await member("player", a);
    const event = await createEvent(db, { title: "Silver Fever", date: "2025-08-15", status: "past" });
    const form = new FormData();
    form.set("submissionKey", randomUUID());
    form.set("eventId", event.id);
    form.set("sources", "The assayer's ledger.");
    form.set("research", "The ore glows faintly when the lamps go out.");
    form.set("file", new Blob([new Uint8Array(PNG)]), "ore.png");
    const uploaded = await fetch(`${a.url}/research/upload`, {
      method: "POST",
      headers: { Cookie: author.cookie, Origin: a.url },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const [row] = await db.select().from(research).where(eq(research.userId, author.id));

    const served = await get(b, `/research/${row!.id}/file`, author.cookie);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    // Neither instance kept it on its own disk.
    for (const instance of [a, b]) expect(fs.existsSync(path.join(instance.dataDir, "files"))).toBe(false);
  });
});
