import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MEMBER_ADMIN_MESSAGES } from "~/features/member-admin/member-admin.form";
import { phoneCodeSentMessage, TWO_FACTOR_MESSAGES } from "~/features/two-factor/two-factor.form";
import { config, overrideConfig } from "~/platform/config.server";
import { auditLog, outbox, profiles, rateLimits, sessions } from "~/platform/db/schema";
import { listUnsentMessages } from "~/platform/outbox/outbox-view.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { deliverSms } from "~/platform/sms/sms.server";
import { withAppServer } from "../../helpers/app-server";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { formBrowser, inPage } from "../../helpers/form-browser";
import { signedInMember } from "../../helpers/members";
import { enrolTotp, totpNow } from "../../helpers/two-factor";
import { startWebhookServer } from "../../helpers/webhook";

/**
 * A phone as a second factor: codes texted through an SMS gateway's webhook, a real HTTP
 * server here, by the outbox worker. Pages are used as a browser without JavaScript uses them.
 */
const db = withTestDatabase();
const app = withAppServer();
const PASSWORD = "Lantern#1877";
const TOKEN = "gateway-token-1877";

/** The gateway's answers, in turn; 204 once the list is used up. */
let answers: number[] = [];
let gateway: Awaited<ReturnType<typeof startWebhookServer>>;
const savedSms = config().sms;

beforeAll(async () => {
  gateway = await startWebhookServer(() => ({ status: answers.shift() ?? 204 }));
  overrideConfig({ sms: { webhookUrl: gateway.url, token: TOKEN } });
});
afterAll(async () => {
  overrideConfig({ sms: savedSms });
  await gateway.close();
});
beforeEach(async () => {
  await db().delete(rateLimits);
  answers = [];
});

const { get, post } = formBrowser(app);

/** One round of the outbox worker for texts; the code in the newest text the gateway received. */
async function textedCode(): Promise<string> {
  const before = gateway.accepted.length;
  await deliverDueMessages({ sms: deliverSms });
  expect(gateway.accepted.length).toBeGreaterThan(before);
  const text = String(gateway.accepted.at(-1)!.body.text);
  return text.match(/\b(\d{6})\b/)![1]!;
}

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** The member's confirmed number and the one being added, as stored. */
async function phonesOf(userId: string) {
  const [row] = await db()
    .select({ confirmed: profiles.twoFactorPhone, pending: profiles.twoFactorPhonePending })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row!;
}
const NO_PHONE = { confirmed: null, pending: null };

async function twoFactorOn(userId: string): Promise<boolean> {
  const [row] = await db().select({ on: profiles.twoFactorEnabled }).from(profiles).where(eq(profiles.id, userId));
  return row!.on;
}

/** Adds and confirms a phone on /profile/two-factor; the jar afterwards. */
async function addPhone(member: { cookie: string }, phone = "(860) 555-0142"): Promise<string> {
  const started = await post(
    "/profile/two-factor",
    { intent: "phone-start", phone, password: PASSWORD },
    member.cookie,
  );
  expect(started.status).toBe(200);
  const confirmed = await post(
    "/profile/two-factor",
    { intent: "phone-confirm", code: await textedCode(), sentTo: "•••• 42" },
    started.jar,
  );
  expect(confirmed.status).toBe(200);
  expect(confirmed.html).toContain(inPage(TWO_FACTOR_MESSAGES.phoneAdded));
  return confirmed.jar;
}

/** The password step of signing in: where it leads, and the jar holding the library's challenge. */
async function passwordStep(email: string, redirectTo = "/pels") {
  const step = await post("/auth", {
    intent: "signin",
    email,
    password: PASSWORD,
    altcha: await solvedCaptcha(),
    redirectTo,
  });
  expect(step.status).toBe(302);
  return step;
}

describe("adding a phone on /profile/two-factor", () => {
  it("needs a valid number and the password, texts a code through the gateway, and turns the factor on once the code comes back", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const page = await get("/profile/two-factor", member.cookie);
    expect(page.html).toContain("Codes by text message");
    expect(page.html).toContain("Mobile phone number");

    const invalid = await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "555-01", password: PASSWORD },
      member.cookie,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain(inPage(TWO_FACTOR_MESSAGES.phoneInvalid));
    const wrongPassword = await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "(860) 555-0142", password: "Wrong#1877" },
      member.cookie,
    );
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.html).toContain(TWO_FACTOR_MESSAGES.wrongPassword);
    expect(await phonesOf(member.id)).toEqual(NO_PHONE);

    const started = await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "(860) 555-0142", password: PASSWORD },
      member.cookie,
    );
    expect(started.status).toBe(200);
    expect(started.html).toContain(inPage(phoneCodeSentMessage("•••• 42")));
    expect(started.html).toContain("Code from the text message");
    expect(started.html).not.toContain("555-0142");
    expect(await phonesOf(member.id)).toEqual({ confirmed: null, pending: "+18605550142" });

    // Queued in the outbox; managers see the label and the last two digits, never the code.
    const [queued] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.kind, "sms"))
      .orderBy(desc(outbox.sequence))
      .limit(1);
    expect(queued!.orderKey).toBe("sms:+18605550142");
    const listed = (await listUnsentMessages()).rows.find((row) => row.id === queued!.id)!;
    expect(listed).toMatchObject({ kind: "sms", recipient: "•••• 42", subject: "Phone confirmation code" });

    const code = await textedCode();
    const received = gateway.accepted.at(-1)!;
    expect(received.body.to).toBe("+18605550142");
    expect(received.body.text).toContain("to confirm this phone");
    expect(received.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(received.headers["content-type"]).toBe("application/json");

    const wrong = await post(
      "/profile/two-factor",
      { intent: "phone-confirm", code: otherCode(code), sentTo: "•••• 42" },
      member.cookie,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongSmsCode));
    expect(await twoFactorOn(member.id)).toBe(false);

    const right = await post(
      "/profile/two-factor",
      { intent: "phone-confirm", code, sentTo: "•••• 42" },
      member.cookie,
    );
    expect(right.status).toBe(200);
    expect(right.html).toContain(inPage(TWO_FACTOR_MESSAGES.phoneAdded));
    expect(await phonesOf(member.id)).toEqual({ confirmed: "+18605550142", pending: null });
    expect(await twoFactorOn(member.id)).toBe(true);
    // The library turned the factor on and put an aal2 session in place.
    expect(right.jar).not.toBe(member.cookie);
    const [newest] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.userId, member.id))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(newest!.assuranceLevel).toBe("aal2");

    const after = await get("/profile/two-factor", right.jar);
    expect(after.html).toMatch(/>On<\/span>/);
    expect(after.html).toContain("texted to your phone");
    expect(after.html).toMatch(/ending in <strong>42<\/strong>/);
    // The code worked once.
    const again = await post("/profile/two-factor", { intent: "phone-confirm", code, sentTo: "•••• 42" }, right.jar);
    expect(again.status).toBe(409);
  });

  it("sends a code only to the newest number: a code texted to an earlier one does not confirm it", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const toFirst = await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "(860) 555-0142", password: PASSWORD },
      member.cookie,
    );
    expect(toFirst.status).toBe(200);
    const first = await textedCode();
    const toSecond = await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "+44 7911 123456", password: PASSWORD },
      member.cookie,
    );
    expect(toSecond.status).toBe(200);
    const second = await textedCode();
    expect(gateway.accepted.at(-1)!.body.to).toBe("+447911123456");
    if (first !== second) {
      const stale = await post(
        "/profile/two-factor",
        { intent: "phone-confirm", code: first, sentTo: "•••• 56" },
        member.cookie,
      );
      expect(stale.status).toBe(400);
    }
    const right = await post(
      "/profile/two-factor",
      { intent: "phone-confirm", code: second, sentTo: "•••• 56" },
      member.cookie,
    );
    expect(right.status).toBe(200);
    expect(await phonesOf(member.id)).toEqual({ confirmed: "+447911123456", pending: null });
  });
});

describe("signing in with a texted code on /auth/two-factor", () => {
  it("offers the phone first to a member without an app, texts a code that signs in once, at aal2", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    await addPhone(member);
    const step = await passwordStep(member.email);
    expect(step.location).toBe("/auth/two-factor?method=sms&redirectTo=%2Fpels");
    const page = await get(step.location, step.jar);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Texted code");
    expect(page.html).toContain("Text me a code");
    expect(page.html).not.toMatch(/email me a code/i);

    const sent = await post("/auth/two-factor", { intent: "send-sms", redirectTo: "/pels" }, step.jar);
    expect(sent.status).toBe(200);
    expect(sent.html).toContain(TWO_FACTOR_MESSAGES.smsSent);
    const [queued] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.kind, "sms"))
      .orderBy(desc(outbox.sequence))
      .limit(1);
    expect((queued!.payload as { label: string }).label).toBe("Sign-in code");
    const code = await textedCode();
    expect(gateway.accepted.at(-1)!.body).toMatchObject({ to: "+18605550142" });
    expect(String(gateway.accepted.at(-1)!.body.text)).toContain("is your sign-in code");

    const wrong = await post(
      "/auth/two-factor",
      { intent: "verify", method: "sms", code: otherCode(code), redirectTo: "/pels" },
      sent.jar,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongSmsCode));
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "sms", code, redirectTo: "/pels" },
      sent.jar,
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe("/pels");
    expect((await get("/pels", right.jar)).status).toBe(200);
    const [newest] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.userId, member.id))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(newest!.assuranceLevel).toBe("aal2");

    const reused = await post(
      "/auth/two-factor",
      { intent: "verify", method: "sms", code, redirectTo: "/pels" },
      (await passwordStep(member.email)).jar,
    );
    expect(reused.status).toBe(400);
    expect(reused.html).toContain(inPage(TWO_FACTOR_MESSAGES.smsCodeExpired));
  });

  it("lets a member with an authenticator app choose a text instead; one without a phone is told so", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const { cookie, uri } = await enrolTotp(member);
    const noPhone = await passwordStep(member.email);
    expect(noPhone.location).toBe("/auth/two-factor?redirectTo=%2Fpels");
    expect((await get(noPhone.location, noPhone.jar)).html).toContain("Text me a code instead");
    const refused = await post("/auth/two-factor", { intent: "send-sms", redirectTo: "/pels" }, noPhone.jar);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(inPage(TWO_FACTOR_MESSAGES.noPhone));

    await addPhone({ cookie });
    const step = await passwordStep(member.email);
    // The app stays the first way offered.
    expect(step.location).toBe("/auth/two-factor?redirectTo=%2Fpels");
    const sent = await post("/auth/two-factor", { intent: "send-sms", redirectTo: "/pels" }, step.jar);
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "sms", code: await textedCode(), redirectTo: "/pels" },
      sent.jar,
    );
    expect(right.location).toBe("/pels");
    // And the app still works.
    const app2 = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(uri), redirectTo: "/pels" },
      (await passwordStep(member.email)).jar,
    );
    expect(app2.location).toBe("/pels");
  });
});

describe("removing the phone", () => {
  it("after the password; when it was the only factor, two-factor authentication goes off with it", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const jar = await addPhone(member);
    const wrong = await post("/profile/two-factor", { intent: "phone-remove", password: "Wrong#1877" }, jar);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(TWO_FACTOR_MESSAGES.wrongPassword);
    const removed = await post("/profile/two-factor", { intent: "phone-remove", password: PASSWORD }, jar);
    expect(removed.status).toBe(200);
    expect(removed.html).toContain(inPage(TWO_FACTOR_MESSAGES.phoneRemovedAndOff));
    expect(await phonesOf(member.id)).toEqual(NO_PHONE);
    expect(await twoFactorOn(member.id)).toBe(false);
    const step = await passwordStep(member.email);
    expect(step.location).toBe("/pels");
  });

  it("keeps the authenticator app on when the member has one", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const { cookie } = await enrolTotp(member);
    const jar = await addPhone({ cookie });
    const removed = await post("/profile/two-factor", { intent: "phone-remove", password: PASSWORD }, jar);
    expect(removed.html).toContain(inPage(TWO_FACTOR_MESSAGES.phoneRemoved));
    expect(await twoFactorOn(member.id)).toBe(true);
    expect((await passwordStep(member.email)).location).toBe("/auth/two-factor?redirectTo=%2Fpels");
  });
});

describe("a manager removes a member's lost phone on /tools/members/:id", () => {
  it("shows the phone by its last digits, asks first, removes it and writes the audit log", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    await addPhone(member);
    const page = await get(`/tools/members/${member.id}`, manager.cookie);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Text messages");
    expect(page.html).toContain("To the number ending in 42");
    expect(page.html).not.toContain("555-0142");

    const asked = await post(`/tools/members/${member.id}`, { intent: "remove-phone" }, manager.cookie);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("It is their only second factor");
    expect((await phonesOf(member.id)).confirmed).toBe("+18605550142");

    const done = await post(`/tools/members/${member.id}`, { intent: "remove-phone", confirm: "yes" }, manager.cookie);
    expect(done.status).toBe(200);
    expect(done.html).toContain("Phone removed.");
    expect(await phonesOf(member.id)).toEqual(NO_PHONE);
    expect(await twoFactorOn(member.id)).toBe(false);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "member.factor_remove"), eq(auditLog.subjectId, member.id)));
    expect(entry).toMatchObject({ actorId: manager.id, details: { factor: "phone" } });

    const again = await post(`/tools/members/${member.id}`, { intent: "remove-phone", confirm: "yes" }, manager.cookie);
    expect(again.status).toBe(409);
    expect(again.html).toContain(inPage(MEMBER_ADMIN_MESSAGES.noPhone));
  });
});

describe("the gateway's answers", () => {
  it("retries a text after a 5xx and fails it at once on a refusal, keeping no number in the error", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    answers = [503];
    await post(
      "/profile/two-factor",
      { intent: "phone-start", phone: "(860) 555-0142", password: PASSWORD },
      member.cookie,
    );
    await deliverDueMessages({ sms: deliverSms });
    const [waiting] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.kind, "sms"))
      .orderBy(desc(outbox.sequence))
      .limit(1);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, lastError: "the SMS gateway answered 503" });
    await db().update(outbox).set({ runAt: new Date() }).where(eq(outbox.id, waiting!.id));
    await deliverDueMessages({ sms: deliverSms });
    const [sent] = await db().select().from(outbox).where(eq(outbox.id, waiting!.id));
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });

    const refusedGateway = await startWebhookServer(() => ({
      status: 400,
      body: { error: "invalid number +18605550142" },
    }));
    overrideConfig({ sms: { webhookUrl: refusedGateway.url, token: TOKEN } });
    try {
      await post(
        "/profile/two-factor",
        { intent: "phone-start", phone: "(860) 555-0142", password: PASSWORD },
        member.cookie,
      );
      await deliverDueMessages({ sms: deliverSms });
      const [failed] = await db()
        .select()
        .from(outbox)
        .where(eq(outbox.kind, "sms"))
        .orderBy(desc(outbox.sequence))
        .limit(1);
      expect(failed!.status).toBe("failed");
      expect(failed!.lastError).toContain("the SMS gateway refused the message (400)");
      expect(failed!.lastError).not.toContain("8605550142");
    } finally {
      overrideConfig({ sms: { webhookUrl: gateway.url, token: TOKEN } });
      await refusedGateway.close();
    }
  });
});

describe("without SMS_WEBHOOK_URL", () => {
  it("has no phone factor anywhere", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: false });
    const { cookie } = await enrolTotp(member);
    const textsBefore = (await db().select().from(outbox).where(eq(outbox.kind, "sms"))).length;
    overrideConfig({ sms: { webhookUrl: undefined, token: undefined } });
    try {
      const profile = await get("/profile/two-factor", cookie);
      expect(profile.status).toBe(200);
      expect(profile.html).not.toContain("Codes by text message");
      expect(profile.html).not.toContain("Mobile phone number");
      const refused = await post(
        "/profile/two-factor",
        { intent: "phone-start", phone: "(860) 555-0142", password: PASSWORD },
        cookie,
      );
      expect(refused.status).toBe(404);
      expect(await phonesOf(member.id)).toEqual(NO_PHONE);

      const step = await passwordStep(member.email);
      const page = await get(`${step.location}&method=sms`, step.jar);
      expect(page.html).not.toContain("Text me a code");
      expect(page.html).toContain("Authenticator code");
      const texted = await post("/auth/two-factor", { intent: "send-sms", redirectTo: "/pels" }, step.jar);
      expect(texted.status).toBe(404);
      expect(await db().select().from(outbox).where(eq(outbox.kind, "sms"))).toHaveLength(textsBefore);
    } finally {
      overrideConfig({ sms: { webhookUrl: gateway.url, token: TOKEN } });
    }
  });
});
