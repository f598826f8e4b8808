import { randomUUID } from "node:crypto";
import { and, desc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TWO_FACTOR_MESSAGES } from "~/features/two-factor/two-factor.form";
import { config, overrideConfig, parseConfig } from "~/platform/config.server";
import { accounts, outbox, passkeys, profiles, rateLimits, sessions } from "~/platform/db/schema";
import { requestSignInCode, signInWithCode } from "~/features/accounts/email-code.server";
import { handOverPasswordLink, inviteMember } from "~/features/member-admin/invitations.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { deliverSms } from "~/platform/sms/sms.server";
import { startAppServer } from "../helpers/app-server";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { discordIdentity, startMockDiscord, type MockDiscord } from "../helpers/discord-oauth";
import { formBrowser, inPage, type Answer } from "../helpers/form-browser";
import { signedInMember } from "../helpers/members";
import { cookieHeader, totpNow } from "../helpers/two-factor";
import { startWebhookServer } from "../helpers/webhook";

/**
 * REQUIRE_MANAGER_2FA (on by default) against every way into the site followed by every choice
 * the second step could offer. Only a second factor that is not the first one opens the managers'
 * pages: an authenticator app, a backup code, a texted code (and a passkey, which signs in at
 * aal2 by itself: tests/features/passkeys/passkeys.test.ts, e2e/passkeys.spec.ts). The mailbox is one factor
 * however it is reached (an emailed code, a reset link, an invitation), so an emailed code is
 * never a second one, whatever came first.
 */
const db = withTestDatabase();
const PASSWORD = "Lantern#1877";
const PHONE = "+18605550142";
/** Pages only a manager proven by two factors may open. */
const MANAGER_PAGES = [
  "/tools/members/invite",
  "/tools/club",
  "/tools/club/faq",
  "/tools/club/welcome",
  "/tools/club/merchant",
  "/tools/club/cabins",
  "/tools/club/factions",
  "/tools/club/pel-questions",
  "/tools/club/application-questions",
  "/tools/club/locations",
  "/tools/club/rulebook",
  "/tools/messages",
  "/tools/messages/new",
  "/emergency-contacts",
];

let mock: MockDiscord;
let server: Awaited<ReturnType<typeof startAppServer>>;
let gateway: Awaited<ReturnType<typeof startWebhookServer>>;
const saved = { discord: config().discordSignIn, sms: config().sms, twoFactor: config().twoFactor };

beforeAll(async () => {
  mock = await startMockDiscord();
  gateway = await startWebhookServer();
  // Before the auth library is first used (it reads the provider's settings once).
  overrideConfig({
    discordSignIn: parseConfig(mock.env).discordSignIn,
    sms: { webhookUrl: gateway.url, token: "gateway-token" },
    twoFactor: { requireManager: true, requireCast: false },
  });
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
  await gateway?.close();
  overrideConfig({ discordSignIn: saved.discord, sms: saved.sms, twoFactor: saved.twoFactor });
});
beforeEach(async () => {
  await db().delete(rateLimits);
});

const { get, post } = formBrowser(() => server);

/** A manager with every second factor: an authenticator app (with backup codes), a confirmed phone and a linked Discord account. */
async function managerWithFactors(name: string) {
  const manager = await signedInMember("manager", PASSWORD, { secondFactor: true });
  await db().update(profiles).set({ twoFactorPhone: PHONE }).where(eq(profiles.id, manager.id));
  const discord = discordIdentity(`${name}-${manager.id.slice(0, 8)}`);
  await db()
    .insert(accounts)
    .values({ id: randomUUID(), userId: manager.id, providerId: "discord", accountId: discord.id });
  return { ...manager, discord };
}
type Manager = Awaited<ReturnType<typeof managerWithFactors>>;

/** Each way in leaves the browser either signed in by one factor (`session`) or half-way through a password sign-in (`challenge`). */
type Entry = { kind: "session" | "challenge"; jar: string };

async function byPassword(email: string, password = PASSWORD): Promise<Entry> {
  const step = await post("/auth", {
    intent: "signin",
    email,
    password,
    altcha: await solvedCaptcha(),
    redirectTo: MANAGER_PAGES[0]!,
  });
  expect(step.status, "the password is right").toBe(302);
  expect(step.location.startsWith("/auth/two-factor")).toBe(true);
  return { kind: "challenge", jar: step.jar };
}

/** The newest emailed sign-in code to `email`, read from the outbox (where it waits for the SMTP server). */
async function emailedSignInCode(email: string): Promise<string> {
  const [mail] = await db()
    .select()
    .from(outbox)
    .where(eq(outbox.kind, "email"))
    .orderBy(desc(outbox.sequence))
    .limit(1);
  const payload = mail!.payload as { to: string; text: string };
  expect(payload.to).toBe(email);
  return payload.text.match(/Your code to sign in to Hopewell is (\d{6})/)![1]!;
}

async function byEmailedCode(email: string): Promise<Entry> {
  // One code a minute per address: the earlier choices asked for some.
  await db().delete(rateLimits);
  expect((await requestSignInCode(email, "192.0.2.10")).ok).toBe(true);
  const signedIn = await signInWithCode(
    { email, code: await emailedSignInCode(email) },
    new Request(`${server.url}/auth/email-code`),
    "192.0.2.10",
  );
  if (!signedIn.ok) throw new Error(signedIn.message);
  return { kind: "session", jar: cookieHeader(signedIn.setCookies) };
}

async function byDiscord(manager: Manager): Promise<Entry> {
  const leaving = await post("/auth/discord", {});
  expect(leaving.status).toBe(302);
  const authorize = new URL(leaving.location);
  authorize.searchParams.set("login", manager.discord.username);
  const atDiscord = await fetch(authorize, { redirect: "manual" });
  const back = new URL(atDiscord.headers.get("Location")!);
  const signedIn = await get(back.pathname + back.search, leaving.jar);
  expect(signedIn.status, "Discord signs the manager in").toBe(302);
  return { kind: "session", jar: signedIn.jar };
}

/** A password link (the reset a manager hands over, or the one a reset email carries) used to choose a new password: it signs nobody in. */
async function byPasswordLink(link: string, email: string): Promise<Entry> {
  const token = new URL(link).searchParams.get("token")!;
  const newPassword = "Lantern#1878";
  const reset = await post("/reset-password", { token, password: newPassword, confirmPassword: newPassword });
  expect(reset.status).toBe(200);
  expect(reset.html).toContain("Password updated");
  for (const page of MANAGER_PAGES)
    expect((await get(page, reset.jar)).location.startsWith("/auth?"), `${page} after the link alone`).toBe(true);
  return byPassword(email, newPassword);
}

const wrongAnswer = (answer: Answer) => answer.status >= 400 || !MANAGER_PAGES.some((page) => answer.location === page);

/** Whether the browser can open the managers' pages now. */
async function opensManagerPages(jar: string): Promise<boolean> {
  const answers = await Promise.all(MANAGER_PAGES.map((page) => get(page, jar)));
  const open = answers.map((answer) => answer.status === 200);
  expect(new Set(open).size, "both pages agree").toBe(1);
  return open[0]!;
}

/** Every second-step choice, each from a fresh way in; returns which ones opened the managers' pages. */
async function secondStepChoices(manager: Manager, wayIn: () => Promise<Entry>): Promise<Record<string, boolean>> {
  const target = MANAGER_PAGES[0]!;
  const outcome: Record<string, boolean> = {};

  // An emailed code: never offered, never sent, never taken; not even the code that signed in.
  {
    const entry = await wayIn();
    if (entry.kind === "session") {
      const refused = await get(target, entry.jar);
      expect(refused.location).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(target)}`);
    }
    const page = await get(`/auth/two-factor?method=email&redirectTo=${encodeURIComponent(target)}`, entry.jar);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/email me a code/i);
    expect(page.html).not.toContain("Emailed code");
    const emailsBefore = await db().$count(outbox, eq(outbox.kind, "email"));
    const asked = await post("/auth/two-factor", { intent: "send-email", redirectTo: target }, entry.jar);
    expect(await db().$count(outbox, eq(outbox.kind, "email")), "no code is emailed").toBe(emailsBefore);
    let jar = asked.jar;
    // A code from the mailbox, however it came, offered as the second factor.
    await db().delete(rateLimits);
    expect((await requestSignInCode(manager.email, "192.0.2.11")).ok).toBe(true);
    const mailboxCode = await emailedSignInCode(manager.email);
    const sent = await post(
      "/auth/two-factor",
      { intent: "verify", method: "email", code: mailboxCode, redirectTo: target },
      jar,
    );
    expect(wrongAnswer(sent)).toBe(true);
    jar = sent.jar;
    outcome.email = await opensManagerPages(jar);
  }

  // The authenticator app.
  {
    const entry = await wayIn();
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(manager.totpUri!), redirectTo: target },
      entry.jar,
    );
    expect(right.location).toBe(target);
    outcome.totp = await opensManagerPages(right.jar);
  }

  // A backup code.
  {
    const entry = await wayIn();
    const code = manager.backupCodes!.shift()!;
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "backup", code, redirectTo: target },
      entry.jar,
    );
    expect(right.location).toBe(target);
    outcome.backup = await opensManagerPages(right.jar);
  }

  // A code texted to the confirmed phone.
  {
    const entry = await wayIn();
    await db().delete(rateLimits);
    const sent = await post("/auth/two-factor", { intent: "send-sms", redirectTo: target }, entry.jar);
    expect(sent.html).toContain(TWO_FACTOR_MESSAGES.smsSent);
    await deliverDueMessages({ sms: deliverSms });
    const code = String(gateway.accepted.at(-1)!.body.text).match(/\b(\d{6})\b/)![1]!;
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "sms", code, redirectTo: target },
      sent.jar,
    );
    expect(right.location).toBe(target);
    outcome.sms = await opensManagerPages(right.jar);
  }
  return outcome;
}

/** What every way in must give: only the factors that are not the mailbox. */
const ONLY_REAL_FACTORS = { email: false, totp: true, backup: true, sms: true };

describe("REQUIRE_MANAGER_2FA: every way in, then every second-step choice", () => {
  it("a password, then: only the app, a backup code or a texted code open the managers' pages", async () => {
    const manager = await managerWithFactors("password");
    expect(await secondStepChoices(manager, () => byPassword(manager.email))).toEqual(ONLY_REAL_FACTORS);
  });

  it("an emailed sign-in code, then: the mailbox again is refused; the other factors raise the session", async () => {
    const manager = await managerWithFactors("emailed");
    expect(await secondStepChoices(manager, () => byEmailedCode(manager.email))).toEqual(ONLY_REAL_FACTORS);
  });

  it("Discord, then: the same", async () => {
    const manager = await managerWithFactors("discord");
    expect(await secondStepChoices(manager, () => byDiscord(manager))).toEqual(ONLY_REAL_FACTORS);
  });

  it("a reset link (from the mailbox) and a new password, then: the mailbox cannot be the second factor", async () => {
    const manager = await managerWithFactors("reset");
    const actor = await signedInMember("manager");
    let password = PASSWORD;
    const wayIn = async () => {
      const { link } = (await handOverPasswordLink({ id: actor.id }, manager.id)) as { link: string };
      const entry = await byPasswordLink(link, manager.email);
      password = "Lantern#1878";
      return entry;
    };
    expect(await secondStepChoices(manager, wayIn)).toEqual(ONLY_REAL_FACTORS);
    expect(password).toBe("Lantern#1878");
  });

  it("an invitation: the link signs nobody in; the new manager is led to set up a factor, and no emailed code stands in for one", async () => {
    const actor = await signedInMember("manager");
    const email = `invited-${Date.now()}@example.com`;
    const invited = await inviteMember(
      { id: actor.id },
      { firstName: "Ada", lastName: "Invited", email, role: "manager" },
    );
    expect(invited.outcome).toBe("invited");
    const [mail] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.kind, "email"))
      .orderBy(desc(outbox.sequence))
      .limit(1);
    const link = (mail!.payload as { text: string }).text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];
    const token = new URL(link).searchParams.get("token")!;
    const chosen = await post("/reset-password", { token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(chosen.status).toBe(200);
    for (const page of MANAGER_PAGES) expect((await get(page, chosen.jar)).location.startsWith("/auth?")).toBe(true);

    // Without a factor, a password signs in with one step, and the managers' pages lead to setting one up.
    const signedIn = await post("/auth", {
      intent: "signin",
      email,
      password: PASSWORD,
      altcha: await solvedCaptcha(),
      redirectTo: "/",
    });
    expect(signedIn.location).toBe("/");
    const led = await get(MANAGER_PAGES[0]!, signedIn.jar);
    expect(led.location).toBe(
      `/profile/two-factor?required=manager&redirectTo=${encodeURIComponent(MANAGER_PAGES[0]!)}`,
    );
    const stepPage = await get("/auth/two-factor?method=email", signedIn.jar);
    expect(stepPage.location).toBe("/profile/two-factor");
    const emailsBefore = await db().$count(outbox, eq(outbox.kind, "email"));
    await post("/auth/two-factor", { intent: "send-email" }, signedIn.jar);
    expect(await db().$count(outbox, eq(outbox.kind, "email"))).toBe(emailsBefore);
    expect(await opensManagerPages(signedIn.jar)).toBe(false);
  });
});

describe("a member whose only factor is a passkey", () => {
  it("cannot add an authenticator app or another passkey on a session made by an emailed code: the passkey is asked for first", async () => {
    const manager = await signedInMember("manager", PASSWORD, { secondFactor: false });
    await db().insert(passkeys).values({
      id: randomUUID(),
      userId: manager.id,
      name: "Phone",
      publicKey: "test-key",
      credentialID: randomUUID(),
      counter: 0,
      deviceType: "multiDevice",
      backedUp: true,
    });
    const entry = await byEmailedCode(manager.email);
    const target = MANAGER_PAGES[0]!;
    const tools = await get(target, entry.jar);
    expect(tools.location).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(target)}`);
    const step = await get(tools.location, entry.jar);
    expect(step.html).toContain("Sign in with a passkey");
    expect(step.html).toContain(inPage(TWO_FACTOR_MESSAGES.passkeyOnly));
    expect(step.html).not.toContain("Authenticator code");

    for (const page of ["/profile/two-factor", "/profile/passkeys"]) {
      const refused = await get(page, entry.jar);
      expect(refused.location, page).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(page)}`);
    }
    const enrol = await post("/profile/two-factor", { intent: "start", password: PASSWORD }, entry.jar);
    expect(enrol.status).toBe(403);
    const options = await post("/profile/passkeys/options", {}, entry.jar);
    expect(options.status).toBe(403);
    const [session] = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, manager.id), gt(sessions.expiresAt, new Date())))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(session!.assuranceLevel).toBe("aal1");
  });
});
