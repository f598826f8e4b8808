import { and, eq, sql } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_CODE_MESSAGES } from "~/features/accounts/email-code.form";
import { MESSAGES } from "~/web/forms/messages";
import { signIn } from "~/features/accounts/accounts.server";
import { runAdminCommand } from "~/ops/control/admin.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "~/ops/demo/seed.server";
import { config, overrideConfig } from "~/platform/config.server";
import { accounts, outbox, profiles, rateLimits, sessions } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";
import { deliverMailNow } from "../../helpers/outbox";
import { recipients, startSmtpServer } from "../../helpers/smtp";

/**
 * /auth/email-code as a browser without JavaScript uses it (plain form posts), with the emails
 * delivered through the outbox to a real SMTP server. The server trusts X-Forwarded-For here,
 * so each test comes from its own client address.
 */
const db = withTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let url: string;
const originalMail = config().mail;
const originalTrustProxy = config().trustProxy;

/** Everything the server logs while this file runs: no code or link may be in it. */
const captured = captureLogs();

beforeAll(async () => {
  smtp = await startSmtpServer();
  overrideConfig({ mail: { ...originalMail, smtpUrl: smtp.url }, trustProxy: true });
});
afterAll(async () => {
  overrideConfig({ mail: originalMail, trustProxy: originalTrustProxy });
  await smtp.close();
});
// Started after the settings above: the server reads TRUST_PROXY when it is made.
const app = withAppServer();
beforeAll(() => {
  url = app().url;
});

let clients = 0;
/** A client address of its own, so one test's throttles never touch another's. */
const newClient = () => `203.0.113.${++clients}`;

function post(client: string, fields: Record<string, string>, cookie?: string) {
  return fetch(`${url}/auth/email-code`, {
    method: "POST",
    headers: {
      Origin: url,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": client,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}
const get = (path: string, client: string, cookie?: string) =>
  fetch(url + path, {
    headers: { "X-Forwarded-For": client, ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

async function askForCode(client: string, email: string, extra: Record<string, string> = {}) {
  return post(client, { intent: "request", email, altcha: await solvedCaptcha(), ...extra });
}

/** Delivers the outbox and returns the newest sign-in code email to `email` that was not seen before. */
async function codeEmailTo(email: string, seen = 0): Promise<{ mail: ParsedMail; code: string; link: string }> {
  await deliverMailNow();
  const mail = await smtp.waitForMessage(
    (m) =>
      recipients(m).includes(email) && smtp.messages.filter((x) => recipients(x).includes(email)).indexOf(m) >= seen,
  );
  const code = mail.text!.match(/Your code to sign in to Hopewell is (\d{6})/)![1]!;
  const link = mail.text!.match(/https?:\/\/\S+\/auth\/email-code\?\S+/)![0];
  return { mail, code, link };
}
const mailsTo = (email: string) => smtp.messages.filter((m) => recipients(m).includes(email));

const signInWith = (client: string, email: string, code: string, redirectTo?: string) =>
  post(client, { intent: "verify", email, code, ...(redirectTo ? { redirectTo } : {}) });
const isSignedIn = async (cookie: string) => (await get("/profile", newClient(), cookie)).status === 200;
const profileOf = async (email: string) => (await db().select().from(profiles).where(eq(profiles.email, email)))[0]!;
const hasPassword = async (userId: string) =>
  (
    await db()
      .select()
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
  ).length > 0;
/** A member whose address is already confirmed, so a code sign-in leaves their password and devices alone. */
async function confirmedMember() {
  const member = await signedInMember("player");
  await db().update(profiles).set({ emailVerified: true }).where(eq(profiles.id, member.id));
  return member;
}

describe("signing in with an emailed code", () => {
  it("is offered from the sign-in page, keeping where to go afterwards", async () => {
    const signInPage = await (await get("/auth?redirectTo=%2Fevents", newClient())).text();
    expect(signInPage).toContain('href="/auth/email-code?redirectTo=%2Fevents"');
    expect(signInPage).toContain("Email me a sign-in code");
    const response = await get("/auth/email-code?redirectTo=%2Fevents", newClient());
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Sign in with a code<\/h1>/);
    expect(html).toMatch(/<label[^>]*>Email<\/label>/);
    expect(html).toContain('name="redirectTo" value="/events"');
    expect(html).toContain("Email me a code");
  });

  it("emails a code and a link; the link only fills in the code; pressing Sign in signs in once, at aal1, and goes where asked", async () => {
    const member = await confirmedMember();
    const client = newClient();
    const asked = await askForCode(client, member.email, { redirectTo: "/events" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(
      `/auth/email-code?${new URLSearchParams({ email: member.email, sent: "1", redirectTo: "/events" })}`,
    );
    const codeStep = await (await get(asked.headers.get("Location")!, client)).text();
    expect(codeStep).toContain(EMAIL_CODE_MESSAGES.sent(member.email).replace(/'/g, "&#x27;"));
    expect(codeStep).toMatch(/<label[^>]*>Code<\/label>/);

    const { mail, code, link } = await codeEmailTo(member.email);
    expect(mail.subject).toBe("Your Hopewell sign-in code");
    expect(mail.subject).not.toContain(code);
    expect(mail.html).toContain(code);
    expect(new URL(link).searchParams.get("code")).toBe(code);
    expect(new URL(link).searchParams.get("redirectTo")).toBe("/events");
    // The outbox keeps the text only until it is sent; the code is hashed where the library keeps it.
    const stored = await db().execute(sql`select value from verifications where value like ${`%${code}%`}`);
    expect((stored as unknown as { rows: unknown[] }).rows).toEqual([]);

    // Following the link (as a mail scanner would) signs nobody in.
    const sessionsBefore = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    const opened = await get(new URL(link).pathname + new URL(link).search, newClient());
    expect(opened.status).toBe(200);
    expect(opened.headers.getSetCookie()).toEqual([]);
    const filled = await opened.text();
    expect(filled).toContain(`value="${code}"`);
    expect(filled).toContain("to use the code from your email");
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(
      sessionsBefore.length,
    );

    const signedIn = await signInWith(newClient(), member.email, code, "/events");
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/events");
    const cookie = cookiesOf(signedIn);
    expect(await isSignedIn(cookie)).toBe(true);
    const mine = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    expect(mine).toHaveLength(sessionsBefore.length + 1);
    expect(mine.every((s) => s.assuranceLevel === "aal1")).toBe(true);
    // A confirmed account keeps its password and its other devices.
    expect(await hasPassword(member.id)).toBe(true);
    expect(await isSignedIn(member.cookie)).toBe(true);

    // The code works once.
    const again = await signInWith(newClient(), member.email, code);
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain(EMAIL_CODE_MESSAGES.usedCode);

    // Neither the code nor the link was ever logged.
    const log = captured.join("\n");
    expect(log).not.toContain(code);
    expect(log).not.toContain("code=");
  });

  it("the first code sign-in of an unconfirmed account removes its old password and devices, and says so", async () => {
    const member = await signedInMember("player");
    expect((await profileOf(member.email)).emailVerified).toBe(false);
    await askForCode(newClient(), member.email);
    const { code } = await codeEmailTo(member.email);
    const signedIn = await signInWith(newClient(), member.email, code, "/events");
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/auth/email-code?notice=password-removed&redirectTo=%2Fevents");
    const cookie = cookiesOf(signedIn);
    const notice = await get(signedIn.headers.get("Location")!, newClient(), cookie);
    expect(notice.status).toBe(200);
    const html = await notice.text();
    expect(html).toContain("You are signed in");
    expect(html).toContain("the password your account had was removed");
    expect(html).toContain('href="/events"');
    expect(html).toContain('href="/forgot-password"');
    expect((await profileOf(member.email)).emailVerified).toBe(true);
    expect(await hasPassword(member.id)).toBe(false);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await isSignedIn(cookie)).toBe(true);
    expect(
      (
        await signIn(
          { email: member.email, password: member.password },
          new Request("http://localhost/auth"),
          "192.0.2.250",
        )
      ).ok,
    ).toBe(false);
  });

  it("keeps the password of a member who signed up in this browser and signs in by code there; another browser's first code still removes it", async () => {
    const password = "Lantern#1877";
    const signUp = async (email: string) => {
      const response = await fetch(`${url}/auth`, {
        method: "POST",
        headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": newClient() },
        body: new URLSearchParams({
          intent: "signup",
          firstName: "Nell",
          lastName: "Newcomer",
          email,
          password,
          confirmPassword: password,
          altcha: await solvedCaptcha(),
        }),
        redirect: "manual",
      });
      expect(response.headers.get("Location")).toBe("/auth?created=1");
      return cookiesOf(response);
    };
    const email = `signed-up-${Date.now()}@example.com`;
    const browser = await signUp(email);
    expect(browser).toMatch(/hopewell_signed_up=/);
    const [made] = await db().select().from(profiles).where(eq(profiles.email, email));
    expect(made!.emailVerified).toBe(false);

    await askForCode(newClient(), email);
    const { code } = await codeEmailTo(email);
    const signedIn = await post(newClient(), { intent: "verify", email, code, redirectTo: "/events" }, browser);
    expect(signedIn.headers.get("Location")).toBe("/events");
    expect((await profileOf(email)).emailVerified).toBe(true);
    expect(await hasPassword(made!.id)).toBe(true);
    expect((await signIn({ email, password }, new Request("http://localhost/auth"), "192.0.2.249")).ok).toBe(true);

    // The cookie names its own account only, and cannot be made for another.
    const other = `signed-up-other-${Date.now()}@example.com`;
    await signUp(other);
    const [otherMade] = await db().select().from(profiles).where(eq(profiles.email, other));
    const forged = browser.replace(made!.id, otherMade!.id);
    await askForCode(newClient(), other);
    const otherCode = (await codeEmailTo(other)).code;
    const elsewhere = await post(
      newClient(),
      { intent: "verify", email: other, code: otherCode, redirectTo: "/events" },
      forged,
    );
    expect(elsewhere.headers.get("Location")).toBe("/auth/email-code?notice=password-removed&redirectTo=%2Fevents");
    expect(await hasPassword(otherMade!.id)).toBe(false);
  });

  it("keeps the password of an account the operator created, whose address the operator vouched for", async () => {
    const email = `made-by-operator-${Date.now()}@example.com`;
    const password = "Lantern#1877";
    const created = await runAdminCommand([
      "create-user",
      "--email",
      email,
      "--password",
      password,
      "--first",
      "Olive",
      "--last",
      "Operator",
      "--role",
      "manager",
    ]);
    expect(created).toEqual({
      code: 0,
      out: [
        `Created ${email} (manager).`,
        "Its address counts as confirmed, since you typed it: signing in with an emailed code keeps its password.",
      ],
      err: [],
    });
    const made = await profileOf(email);
    expect(made.emailVerified).toBe(true);

    await askForCode(newClient(), email);
    const { code } = await codeEmailTo(email);
    const signedIn = await signInWith(newClient(), email, code, "/events");
    expect(signedIn.headers.get("Location")).toBe("/events");
    expect(await hasPassword(made.id)).toBe(true);
    expect((await signIn({ email, password }, new Request("http://localhost/auth"), "192.0.2.248")).ok).toBe(true);
  });

  it("keeps the password of the demo data's accounts", async () => {
    await seedDemo(db(), { members: 4, events: 1, pels: 1, orders: 1, letters: 1, research: 1 });
    const email = DEMO_ACCOUNTS.player;
    const made = await profileOf(email);
    await askForCode(newClient(), email);
    const { code } = await codeEmailTo(email);
    expect((await signInWith(newClient(), email, code, "/events")).headers.get("Location")).toBe("/events");
    expect(await hasPassword(made.id)).toBe(true);
    expect(
      (await signIn({ email, password: DEMO_PASSWORD }, new Request("http://localhost/auth"), "192.0.2.247")).ok,
    ).toBe(true);
  });

  it("refuses a wrong code, and lets the right one in afterwards", async () => {
    const member = await confirmedMember();
    await askForCode(newClient(), member.email);
    const { code } = await codeEmailTo(member.email);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await signInWith(newClient(), member.email, wrong);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(EMAIL_CODE_MESSAGES.wrongCode);
    expect(html).toMatch(/aria-invalid="true"/);
    const malformed = await signInWith(newClient(), member.email, "12ab");
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain(EMAIL_CODE_MESSAGES.codeFormat);
    const right = await signInWith(newClient(), member.email, code.replace(/(\d{3})/, "$1 "));
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/");
  });

  it("stops a code after five wrong tries", async () => {
    const member = await confirmedMember();
    await askForCode(newClient(), member.email);
    const { code } = await codeEmailTo(member.email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      expect(await (await signInWith(newClient(), member.email, wrong)).text()).toContain(
        EMAIL_CODE_MESSAGES.wrongCode,
      );
    const late = await signInWith(newClient(), member.email, code);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain(EMAIL_CODE_MESSAGES.tooManyTries);
    expect(late.headers.getSetCookie()).toEqual([]);
  });

  it("refuses an expired code", async () => {
    const member = await confirmedMember();
    await askForCode(newClient(), member.email);
    const { code } = await codeEmailTo(member.email);
    // Ten minutes later: the code's row expires, as the library wrote it.
    await db().execute(
      sql`update verifications set expires_at = now() - interval '1 second' where identifier like ${`%${member.email}`}`,
    );
    const late = await signInWith(newClient(), member.email, code);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain(EMAIL_CODE_MESSAGES.expiredCode);
    expect(late.headers.getSetCookie()).toEqual([]);
  });

  it("codes expire after ten minutes by default", async () => {
    const member = await confirmedMember();
    await askForCode(newClient(), member.email);
    await codeEmailTo(member.email);
    const result = await db().execute(
      sql`select extract(epoch from (expires_at - created_at))::int as seconds from verifications where identifier like ${`%${member.email}`}`,
    );
    expect((result as unknown as { rows: { seconds: number }[] }).rows[0]!.seconds).toBe(600);
  });

  it("answers an address without an account exactly as one with, sends nothing and makes no account", async () => {
    const member = await confirmedMember();
    const unknown = `nobody-${Date.now()}@example.com`;
    const startedKnown = performance.now();
    const known = await askForCode(newClient(), member.email);
    const knownMs = performance.now() - startedKnown;
    const startedUnknown = performance.now();
    const stranger = await askForCode(newClient(), unknown);
    const unknownMs = performance.now() - startedUnknown;
    expect(stranger.status).toBe(known.status);
    expect(stranger.headers.get("Location")).toBe(
      known.headers.get("Location")!.replace(encodeURIComponent(member.email), encodeURIComponent(unknown)),
    );
    expect(Math.min(knownMs, unknownMs)).toBeGreaterThanOrEqual(550);
    const page = await (await get(stranger.headers.get("Location")!, newClient())).text();
    expect(page).toContain(EMAIL_CODE_MESSAGES.sent(unknown).replace(/'/g, "&#x27;"));

    await codeEmailTo(member.email);
    expect(mailsTo(unknown)).toEqual([]);
    expect(
      await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.payload}->>'to' = ${unknown}`),
    ).toEqual([]);
    const guess = await signInWith(newClient(), unknown, "123456");
    expect(guess.status).toBe(400);
    expect(await guess.text()).toContain(EMAIL_CODE_MESSAGES.wrongCode);
    expect(await db().select().from(profiles).where(eq(profiles.email, unknown))).toEqual([]);
    // Asking again too soon is refused the same way for both.
    const knownAgain = await (
      await post(newClient(), { intent: "resend", email: member.email, altcha: await solvedCaptcha() })
    ).text();
    const unknownAgain = await (
      await post(newClient(), { intent: "resend", email: unknown, altcha: await solvedCaptcha() })
    ).text();
    expect(knownAgain).toMatch(/You can ask for another code in \d+ seconds\./);
    expect(unknownAgain).toMatch(/You can ask for another code in \d+ seconds\./);
  });

  it("throttles Send again per address, saying how many seconds are left, and a new code replaces the old", async () => {
    const member = await confirmedMember();
    const client = newClient();
    await askForCode(client, member.email);
    const first = await codeEmailTo(member.email);

    const tooSoon = await post(client, { intent: "resend", email: member.email, altcha: await solvedCaptcha() });
    expect(tooSoon.status).toBe(429);
    const html = await tooSoon.text();
    const seconds = Number(html.match(/You can ask for another code in (\d+) seconds\./)![1]);
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
    // The code step is still shown, with the code field.
    expect(html).toMatch(/<label[^>]*>Code<\/label>/);
    // From another client too: the limit is the address's.
    const elsewhere = await post(newClient(), { intent: "resend", email: member.email, altcha: await solvedCaptcha() });
    expect(elsewhere.status).toBe(429);
    await deliverMailNow();
    expect(mailsTo(member.email)).toHaveLength(1);

    // A minute later (the window ends now), Send again sends a new code; the old one stops working.
    await db()
      .update(rateLimits)
      .set({ resetAt: sql`now()` })
      .where(eq(rateLimits.key, `email-code:address:${member.email}`));
    const resent = await post(client, { intent: "resend", email: member.email, altcha: await solvedCaptcha() });
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain(EMAIL_CODE_MESSAGES.sent(member.email).replace(/'/g, "&#x27;"));
    const second = await codeEmailTo(member.email, 1);
    if (second.code !== first.code)
      expect(await (await signInWith(newClient(), member.email, first.code)).text()).toContain(
        EMAIL_CODE_MESSAGES.wrongCode,
      );
    expect((await signInWith(newClient(), member.email, second.code)).status).toBe(302);
  });

  it("throttles one client asking for many addresses", { timeout: 120_000 }, async () => {
    const client = newClient();
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) last = await askForCode(client, `crowd${i}-${Date.now()}@example.com`);
    expect(last!.status).toBe(429);
    expect(await last!.text()).toMatch(/You can ask for another code in \d+ (seconds|minutes)\./);
  });

  it("needs the CAPTCHA for every code sent", async () => {
    const member = await confirmedMember();
    const before = mailsTo(member.email).length;
    const request = await post(newClient(), { intent: "request", email: member.email });
    expect(request.status).toBe(400);
    expect(await request.text()).toContain(MESSAGES.captcha);
    const resend = await post(newClient(), { intent: "resend", email: member.email, altcha: "forged" });
    expect(resend.status).toBe(400);
    expect(await resend.text()).toContain(MESSAGES.captcha);
    await deliverMailNow();
    expect(mailsTo(member.email)).toHaveLength(before);
  });

  it("sends a signed-in member on, and refuses a bad address with a field message", async () => {
    const member = await confirmedMember();
    const page = await get("/auth/email-code?redirectTo=%2Fevents", newClient(), member.cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/events");
    const bad = await post(newClient(), { intent: "request", email: "not-an-address", altcha: await solvedCaptcha() });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid email address");
  });
});
