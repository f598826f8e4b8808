import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { signIn } from "~/features/accounts/accounts.server";
import { accounts, outbox, sessions } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

/**
 * /profile/password as a browser without JavaScript uses it: plain form posts, two cookie
 * jars (two devices) of one member.
 */
const db = withTestDatabase();
const NEW_PASSWORD = "Saloon$Door42";

const app = withAppServer();
let url: string;
beforeAll(() => {
  url = app().url;
});

/** Signs in through the sign-in form: returns that device's Cookie header. */
async function signInDevice(member: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${url}/auth`, {
    method: "POST",
    headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: "/profile",
    }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return cookiesOf(response);
}
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
/** The cookie jar after a response: the names it sets replace the ones sent. */
function updatedJar(jar: string, response: Response): string {
  const cookies = new Map(jar.split("; ").map((c) => [c.split("=")[0], c] as const));
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    cookies.set(pair.split("=")[0], pair);
  }
  return [...cookies.values()].join("; ");
}
const page = (cookie: string, path = "/profile/password") =>
  fetch(url + path, { headers: { Cookie: cookie }, redirect: "manual" });
const change = (cookie: string, fields: Record<string, string>) =>
  fetch(`${url}/profile/password`, {
    method: "POST",
    headers: { Origin: url, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
const signedOut = async (cookie: string) => {
  const response = await page(cookie, "/profile");
  return response.status === 302 && (response.headers.get("Location") ?? "").startsWith("/auth");
};
const passwordHash = async (userId: string) =>
  (await db().select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, userId)))[0]!.password;
const canSignIn = async (email: string, password: string) =>
  (await signIn({ email, password }, new Request("http://localhost/auth"), "192.0.2.200")).ok;
const changedEmails = (to: string) =>
  db()
    .select()
    .from(outbox)
    .where(
      and(
        sql`${outbox.payload}->>'to' = ${to}`,
        sql`${outbox.payload}->>'subject' = 'Your Hopewell password was changed'`,
      ),
    );

describe("changing the password", () => {
  it("shows the form to a signed-in member, with the other devices' sign-out checked, and sends others to sign in", async () => {
    const member = await signedInMember("applicant");
    const response = await page(member.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h2[^>]*>\s*Password\s*<\/h2>/);
    for (const label of ["Current password", "New password", "Confirm new password", "Sign out of all other devices"])
      expect(html).toContain(label);
    expect(html).toMatch(/<input type="checkbox"[^>]*name="signOutOthers"[^>]*checked/);
    expect(html).toContain('href="/profile/password"');
    expect(await page("")).toHaveProperty("status", 302);
  });

  it("refuses a wrong current password with a field message, and changes nothing", async () => {
    const member = await signedInMember("player");
    const before = await passwordHash(member.id);
    const response = await change(member.cookie, {
      currentPassword: "Wrong#Guess1",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      signOutOthers: "on",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(SITE_MESSAGES.wrongCurrentPassword);
    expect(html).toMatch(
      /name="currentPassword"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="currentPassword"/,
    );
    expect(await passwordHash(member.id)).toBe(before);
    expect(await signedOut(member.cookie)).toBe(false);
    expect(await changedEmails(member.email)).toEqual([]);
  });

  it("refuses a confirmation that does not match and a new password that breaks the rules", async () => {
    const member = await signedInMember("player");
    const before = await passwordHash(member.id);
    const mismatch = await change(member.cookie, {
      currentPassword: member.password,
      password: NEW_PASSWORD,
      confirmPassword: "Saloon$Door43",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain(MESSAGES.passwordsDontMatch);
    const weak = await change(member.cookie, {
      currentPassword: member.password,
      password: "short",
      confirmPassword: "short",
    });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain(MESSAGES.passwordRequirements);
    const blank = await change(member.cookie, {
      currentPassword: "",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain(MESSAGES.required);
    expect(await passwordHash(member.id)).toBe(before);
  });

  it("changes the password and signs out the other devices, keeping this one signed in", async () => {
    const member = await signedInMember("player");
    const laptop = await signInDevice(member);
    const phone = await signInDevice(member);
    expect(await signedOut(phone)).toBe(false);

    const response = await change(laptop, {
      currentPassword: member.password,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      signOutOthers: "on",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Password updated.");
    // The library replaced this device's session too: the new cookie keeps it signed in.
    expect(response.headers.getSetCookie().length).toBeGreaterThan(0);
    const laptopNow = updatedJar(laptop, response);
    expect(await signedOut(laptopNow)).toBe(false);
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(member.cookie)).toBe(true);
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(1);

    expect(await canSignIn(member.email, member.password)).toBe(false);
    expect(await canSignIn(member.email, NEW_PASSWORD)).toBe(true);
    const [email] = await changedEmails(member.email);
    expect(email).toBeDefined();
    expect(JSON.stringify(email!.payload)).not.toContain(NEW_PASSWORD);
  });

  it("without the checkbox, the other devices stay signed in", async () => {
    const member = await signedInMember("player");
    const laptop = await signInDevice(member);
    const phone = await signInDevice(member);

    const response = await change(laptop, {
      currentPassword: member.password,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Password updated.");
    expect(await signedOut(updatedJar(laptop, response))).toBe(false);
    expect(await signedOut(phone)).toBe(false);
    expect(await signedOut(member.cookie)).toBe(false);
    expect(await canSignIn(member.email, NEW_PASSWORD)).toBe(true);
  });

  it("counts attempts against the account's sign-in limit, so it cannot be used to guess the password", async () => {
    const member = await signedInMember("player");
    const before = await passwordHash(member.id);
    let status = 0;
    for (let attempt = 0; attempt < 12 && status !== 429; attempt++) {
      const response = await change(member.cookie, {
        currentPassword: `Wrong#Guess${attempt}`,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      status = response.status;
    }
    expect(status).toBe(429);
    // Past the limit even the right password is not checked.
    const right = await change(member.cookie, {
      currentPassword: member.password,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(right.status).toBe(429);
    expect(await right.text()).toContain(SITE_MESSAGES.tooManyPasswordChanges);
    expect(await passwordHash(member.id)).toBe(before);
  });
});
