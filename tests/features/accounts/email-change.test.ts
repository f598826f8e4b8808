import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EMAIL_CHANGE_MESSAGES } from "~/features/accounts/email-code.form";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { signIn, signUp } from "~/features/accounts/accounts.server";
import { config, overrideConfig } from "~/platform/config.server";
import { outbox, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";
import { deliverMailNow } from "../../helpers/outbox";
import { recipients, startSmtpServer } from "../../helpers/smtp";

/**
 * /profile/email and the confirmation link, as a browser without JavaScript uses them, with
 * the emails delivered through the outbox to a real SMTP server.
 */
const db = withTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let url: string;
const originalMail = config().mail;
/** Everything the server logs while this file runs: no link may be in it. */
const captured = captureLogs();

beforeAll(async () => {
  smtp = await startSmtpServer();
  overrideConfig({ mail: { ...originalMail, smtpUrl: smtp.url } });
});
afterAll(async () => {
  overrideConfig({ mail: originalMail });
  await smtp.close();
});
const app = withAppServer();
beforeAll(() => {
  url = app().url;
});

const page = (cookie: string, path = "/profile/email") =>
  fetch(url + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
const post = (cookie: string, path: string, fields: Record<string, string>) =>
  fetch(url + path, {
    method: "POST",
    headers: { Origin: url, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
const askToChange = (cookie: string, newEmail: string, currentPassword: string) =>
  post(cookie, "/profile/email", { newEmail, currentPassword });
const confirm = (cookie: string, link: string) =>
  post(cookie, "/profile/email/confirm", { token: new URL(link).searchParams.get("token")! });
const emailOf = async (id: string) =>
  (await db().select({ email: profiles.email }).from(profiles).where(eq(profiles.id, id)))[0]!.email;
const queuedTo = (address: string) =>
  db()
    .select()
    .from(outbox)
    .where(sql`${outbox.payload}->>'to' = ${address}`);
const canSignIn = async (email: string, password: string) =>
  (await signIn({ email, password }, new Request("http://localhost/auth"), "192.0.2.210")).ok;
let n = 0;
const freshAddress = (name: string) => `${name}-${Date.now()}-${++n}@example.net`;

async function confirmationLink(to: string): Promise<string> {
  await deliverMailNow();
  const mail = await smtp.waitForMessage(
    (m) => recipients(m).includes(to) && m.subject === "Confirm your new Hopewell email address",
  );
  return mail.text!.match(/https?:\/\/\S+\/profile\/email\/confirm\?token=\S+/)![0];
}

describe("changing the email address", () => {
  it("is a tab of the profile showing the current address and the form, for members only", async () => {
    const member = await signedInMember("applicant");
    const response = await page(member.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h2[^>]*>\s*Email address\s*<\/h2>/);
    expect(html).toContain(member.email);
    for (const label of ["New email address", "Current password", "Send confirmation link"])
      expect(html).toContain(label);
    expect(html).toContain('href="/profile/email"');
    const signedOut = await page("");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe("/auth?redirectTo=%2Fprofile%2Femail");
  });

  it("changes only once the link sent to the new address is followed, then tells the old address", async () => {
    const member = await signedInMember("player");
    const newEmail = freshAddress("Moved");
    const asked = await askToChange(member.cookie, newEmail, member.password);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(EMAIL_CHANGE_MESSAGES.sent(newEmail.toLowerCase()));
    const link = await confirmationLink(newEmail.toLowerCase());
    expect(await emailOf(member.id)).toBe(member.email);

    // Opening the link shows a button and changes nothing.
    const opened = await page(member.cookie, new URL(link).pathname + new URL(link).search);
    expect(opened.status).toBe(200);
    const openedHtml = await opened.text();
    expect(openedHtml).toContain("Confirm new address");
    expect(openedHtml).toContain(member.email);
    expect(await emailOf(member.id)).toBe(member.email);

    const confirmed = await confirm(member.cookie, link);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/profile/email?changed=1");
    expect(await emailOf(member.id)).toBe(newEmail.toLowerCase());
    const after = await (await page(member.cookie, "/profile/email?changed=1")).text();
    expect(after).toContain(EMAIL_CHANGE_MESSAGES.changed(newEmail.toLowerCase()));

    await deliverMailNow();
    const notice = await smtp.waitForMessage(
      (m) => recipients(m).includes(member.email) && m.subject === "Your Hopewell email address was changed",
    );
    expect(notice.text).toContain(newEmail.toLowerCase());
    expect(await canSignIn(newEmail.toLowerCase(), member.password)).toBe(true);
    expect(await canSignIn(member.email, member.password)).toBe(false);

    // The link works once.
    const reused = await confirm(member.cookie, link);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain(EMAIL_CHANGE_MESSAGES.linkInvalid);

    const token = new URL(link).searchParams.get("token")!;
    expect(captured.join("\n")).not.toContain(token);
  });

  it("refuses a wrong password with a field message, and sends nothing", async () => {
    const member = await signedInMember("player");
    const newEmail = freshAddress("wrongpass");
    const response = await askToChange(member.cookie, newEmail, "Wrong#Guess1");
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(SITE_MESSAGES.wrongCurrentPassword);
    expect(html).toMatch(
      /name="currentPassword"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="currentPassword"/,
    );
    expect(await queuedTo(newEmail)).toEqual([]);
  });

  it("refuses the member's own address and one used by another account, without saying whose", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("cast");
    const same = await askToChange(member.cookie, member.email.toUpperCase(), member.password);
    expect(same.status).toBe(400);
    expect(await same.text()).toContain(EMAIL_CHANGE_MESSAGES.sameEmail);
    const taken = await askToChange(member.cookie, other.email, member.password);
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(html).toContain(EMAIL_CHANGE_MESSAGES.taken);
    expect(html).not.toContain(other.firstName);
    expect(await queuedTo(other.email)).toEqual([]);
    // Only someone who knows the password learns that an address is taken.
    const guess = await askToChange(member.cookie, other.email, "Wrong#Guess1");
    expect(await guess.text()).not.toContain(EMAIL_CHANGE_MESSAGES.taken);
  });

  it("refuses the change when the new address was taken after the link was sent", async () => {
    const member = await signedInMember("player");
    const newEmail = freshAddress("raced");
    await askToChange(member.cookie, newEmail, member.password);
    const link = await confirmationLink(newEmail);
    expect(
      (await signUp({ firstName: "Quick", lastName: "Draw", email: newEmail, password: "Lantern#1877" }, "192.0.2.211"))
        .ok,
    ).toBe(true);
    const response = await confirm(member.cookie, link);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(EMAIL_CHANGE_MESSAGES.taken);
    expect(await emailOf(member.id)).toBe(member.email);
  });

  it("refuses an expired link", async () => {
    const member = await signedInMember("player");
    const newEmail = freshAddress("late");
    await askToChange(member.cookie, newEmail, member.password);
    const link = await confirmationLink(newEmail);
    // An hour and a minute later, by the server's clock (it runs in this process).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61 * 60_000 });
    try {
      const response = await confirm(member.cookie, link);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(EMAIL_CHANGE_MESSAGES.linkExpired);
    } finally {
      vi.useRealTimers();
    }
    expect(await emailOf(member.id)).toBe(member.email);
  });

  it("refuses a link made for another member, and a signed-out visitor is asked to sign in first", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const newEmail = freshAddress("stolen");
    await askToChange(member.cookie, newEmail, member.password);
    const link = await confirmationLink(newEmail);
    const response = await confirm(other.cookie, link);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(EMAIL_CHANGE_MESSAGES.otherAccount);
    expect(await emailOf(member.id)).toBe(member.email);
    expect(await emailOf(other.id)).toBe(other.email);

    const path = new URL(link).pathname + new URL(link).search;
    const signedOut = await page("", path);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    const tampered = await post(member.cookie, "/profile/email/confirm", { token: "not-a-token" });
    expect(tampered.status).toBe(400);
    expect(await tampered.text()).toContain(EMAIL_CHANGE_MESSAGES.linkInvalid);
  });
});
