import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { requestPasswordReset } from "~/features/accounts/password-changes.server";
import { config, overrideConfig } from "~/platform/config.server";
import { outbox, profiles, sessions } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { deliverSms } from "~/platform/sms/sms.server";
import { saveEmergencyContact } from "~/features/members/profiles.server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";
import { cookieHeader, totpNow } from "../helpers/two-factor";
import { signIn } from "~/features/accounts/accounts.server";
import { textSecondFactorCode, verifySecondFactor } from "~/features/two-factor/two-factor.server";
import { startWebhookServer } from "../helpers/webhook";

const db = withTestDatabase();

/** Everything written to the log, and to the console, while a test runs. */
let captured: string[] = [];
const stream = pino.symbols.streamSym as unknown as keyof typeof logger;
let savedStream: unknown;
let savedLevel: string;
beforeEach(() => {
  captured = [];
  savedLevel = logger.level;
  savedStream = logger[stream];
  logger.level = "debug";
  (logger as unknown as Record<symbol, unknown>)[stream as unknown as symbol] = {
    write: (line: string) => captured.push(line),
  };
  for (const method of ["log", "info", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      captured.push(
        args.map((arg) => (arg instanceof Error ? `${arg.stack} ${JSON.stringify(arg)}` : String(arg))).join(" "),
      );
    });
  }
});
afterEach(() => {
  (logger as unknown as Record<symbol, unknown>)[stream as unknown as symbol] = savedStream;
  logger.level = savedLevel;
  vi.restoreAllMocks();
});
const log = () => captured.join("\n");

describe("errors in the log", () => {
  it("never carry a session token from a failed insert", async () => {
    const member = await signedInMember("player");
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    try {
      // A unique violation on an insert that carries the token, as a retried sign-in could make.
      await db()
        .insert(sessions)
        .values({ ...session!, id: "a-second-session" });
      expect.unreachable();
    } catch (error) {
      logger.error({ err: error }, "creating a session failed");
    }
    expect(log()).toContain("creating a session failed");
    expect(log()).toContain("sessions_token_unique");
    expect(log()).not.toContain(session!.token);
    expect(log()).not.toContain(member.id);
  });

  it("never carry a reset token when the reset request fails", async () => {
    const member = await signedInMember("player");
    await db().execute(
      sql`alter table verifications add constraint verifications_test_refuse check (identifier not like 'reset-password:%')`,
    );
    try {
      expect(await requestPasswordReset(member.email, "10.7.7.7")).toMatchObject({ ok: false, status: 500 });
    } finally {
      await db().execute(sql`alter table verifications drop constraint verifications_test_refuse`);
    }
    expect(log()).toContain("verifications_test_refuse");
    expect(log()).not.toContain("reset-password:");
    expect(log()).not.toContain(member.email);
  });

  it("never carry an emergency contact when saving it fails", async () => {
    const member = await signedInMember("player");
    await db().execute(sql`alter table profiles add constraint profiles_test_refuse check (emergency_contact is null)`);
    try {
      await saveEmergencyContact(member.id, { name: "Martha Quill", phone: "+44 7700 900461" });
      expect.unreachable();
    } catch (error) {
      // As the profile page logs it.
      logger.error({ err: error }, "saving an emergency contact failed");
    } finally {
      await db().execute(sql`alter table profiles drop constraint profiles_test_refuse`);
    }
    expect(log()).toContain("profiles_test_refuse");
    expect(log()).not.toContain("Martha Quill");
    expect(log()).not.toContain("7700");
  });

  it("leave out the recipient of an email kept because no SMTP server is set", async () => {
    await queueEmail(db(), { to: "quiet.reader@example.com", subject: "Kept for later", text: "t", html: "<p>t</p>" });
    expect(log()).toContain("no SMTP_URL is set");
    expect(log()).not.toContain("quiet.reader");
  });

  it("never carry a second factor: the app's secret, its codes or the backup codes", async () => {
    const member = await signedInMember("player", "Lantern#1877", { secondFactor: true });
    const first = await signIn(
      { email: member.email, password: "Lantern#1877" },
      new Request("http://localhost/auth"),
      "192.0.2.77",
    );
    if (!first.ok || !first.secondStep) throw new Error("no second step");
    const challenge = new Request("http://localhost/auth/two-factor", {
      headers: { cookie: cookieHeader(first.setCookies) },
    });
    const code = totpNow(member.totpUri!);
    expect((await verifySecondFactor(challenge, "192.0.2.77", "totp", code, null)).ok).toBe(true);
    const secret = new URL(member.totpUri!).searchParams.get("secret")!;
    // The code as a word of its own (a timestamp's digits may hold any six in a row).
    expect(log()).not.toMatch(new RegExp(`\\b${code}\\b`));
    for (const value of [secret, ...member.backupCodes!]) expect(log()).not.toContain(value);
  });

  it("never carry a texted code or the whole phone number, even when the gateway quotes it back", async () => {
    const member = await signedInMember("player", "Lantern#1877", { secondFactor: true });
    await db().update(profiles).set({ twoFactorPhone: "+18605550199" }).where(eq(profiles.id, member.id));
    // The gateway refuses the text, quoting the number in its answer.
    const gateway = await startWebhookServer(() => ({
      status: 422,
      body: { error: "cannot deliver to +1 860-555-0199" },
    }));
    const saved = config().sms;
    overrideConfig({ sms: { webhookUrl: gateway.url, token: "log-safety-token" } });
    try {
      const first = await signIn(
        { email: member.email, password: "Lantern#1877" },
        new Request("http://localhost/auth"),
        "192.0.2.78",
      );
      if (!first.ok || !first.secondStep) throw new Error("no second step");
      const challenge = new Request("http://localhost/auth/two-factor", {
        headers: { cookie: cookieHeader(first.setCookies) },
      });
      expect((await textSecondFactorCode(challenge, "192.0.2.78", null)).ok).toBe(true);
      const [text] = await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.kind} = 'sms' and ${outbox.payload}->>'to' = '+18605550199'`);
      const code = String((text!.payload as { text: string }).text.match(/\b(\d{6})\b/)![1]);
      await deliverDueMessages({ sms: deliverSms });
      expect(gateway.requests).toHaveLength(1);
      expect((await verifySecondFactor(challenge, "192.0.2.78", "sms", code, null)).ok).toBe(true);
      expect(log()).toContain("text message queued");
      expect(log()).toContain("outbox delivery failed");
      expect(log()).not.toMatch(new RegExp(`\\b${code}\\b`));
      for (const value of ["8605550199", "555-0199", "log-safety-token"]) expect(log()).not.toContain(value);
    } finally {
      overrideConfig({ sms: saved });
      await gateway.close();
    }
  });
});
