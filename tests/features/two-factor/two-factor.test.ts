import { desc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { TWO_FACTOR_MESSAGES } from "~/features/two-factor/two-factor.form";
import { signIn } from "~/features/accounts/accounts.server";
import { config, overrideConfig } from "~/platform/config.server";
import { profiles, rateLimits, sessions, twoFactors } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { formBrowser, inPage } from "../../helpers/form-browser";
import { sessionCookie, signedInMember } from "../../helpers/members";
import { cookieHeader, enrolTotp, totpNow, wrongTotp } from "../../helpers/two-factor";

/**
 * Two-factor authentication as a browser without JavaScript uses it: plain form posts and a
 * cookie jar per device, against the app's own HTTP server.
 */
const db = withTestDatabase();
const app = withAppServer();
const PASSWORD = "Lantern#1877";

// Every code posted here comes from 127.0.0.1: each test starts with fresh per-address counters.
beforeEach(async () => {
  await db().delete(rateLimits);
});

const { get, post } = formBrowser(app);

/** The password step of signing in, through the sign-in form: the jar then holds the library's challenge. */
async function passwordStep(email: string, redirectTo = "/pels"): Promise<string> {
  const step = await post("/auth", {
    intent: "signin",
    email,
    password: PASSWORD,
    altcha: await solvedCaptcha(),
    redirectTo,
  });
  expect(step.status).toBe(302);
  expect(step.location).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`);
  return step.jar;
}

async function newestSession(userId: string) {
  const [row] = await db()
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  return row!;
}

/** The backup codes a page shows, from its list of them. */
function codesIn(html: string): string[] {
  const list = html.match(/<ul[^>]*aria-label="Backup codes"[^>]*>([\s\S]*?)<\/ul>/);
  if (!list) return [];
  return [...list[1]!.matchAll(/<li[^>]*>([A-Za-z0-9]{5}-[A-Za-z0-9]{5})<\/li>/g)].map((m) => m[1]!);
}

describe("enrolling an authenticator app on /profile/two-factor", () => {
  it("needs the password, shows a QR code and the key, refuses a wrong first code, then turns on with ten backup codes shown once", async () => {
    const member = await signedInMember("player");
    const before = await get("/profile/two-factor", member.cookie);
    expect(before.status).toBe(200);
    expect(before.html).toMatch(/Status: <\/strong>(<!-- -->)?<span[^>]*>Off<\/span>/);

    const wrong = await post("/profile/two-factor", { intent: "start", password: "Wrong#1877" }, member.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(TWO_FACTOR_MESSAGES.wrongPassword);
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);

    const started = await post("/profile/two-factor", { intent: "start", password: PASSWORD }, member.cookie);
    expect(started.status).toBe(200);
    expect(started.html).toMatch(/role="img" aria-label="QR code to scan with your authenticator app"[^>]*><svg/);
    const uri = started.html.match(/name="uri" value="([^"]+)"/)![1]!.replace(/&amp;/g, "&");
    const secret = new URL(uri).searchParams.get("secret")!;
    expect(started.html).toContain(secret.match(/.{1,4}/g)!.join(" "));
    // Stored by the library, encrypted, and not yet confirmed.
    const [pending] = await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(pending!.verified).toBe(false);
    expect(pending!.secret).not.toContain(secret);

    const mistyped = await post("/profile/two-factor", { intent: "confirm", code: wrongTotp(uri), uri }, member.cookie);
    expect(mistyped.status).toBe(400);
    expect(mistyped.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongCode));
    expect(mistyped.html).toContain("<svg");
    const [profileBefore] = await db()
      .select({ on: profiles.twoFactorEnabled })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(profileBefore!.on).toBe(false);

    const confirmed = await post("/profile/two-factor", { intent: "confirm", code: totpNow(uri), uri }, member.cookie);
    expect(confirmed.status).toBe(200);
    expect(confirmed.html).toContain(inPage(TWO_FACTOR_MESSAGES.enrolled));
    const codes = codesIn(confirmed.html);
    expect(new Set(codes).size).toBe(10);
    const [profileAfter] = await db()
      .select({ on: profiles.twoFactorEnabled })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(profileAfter!.on).toBe(true);
    const [row] = await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(row!.verified).toBe(true);
    for (const code of codes) expect(row!.backupCodes).not.toContain(code);
    // The code proved the second factor: the session the library put in place is aal2.
    expect(confirmed.jar).not.toBe(member.cookie);
    expect((await newestSession(member.id)).assuranceLevel).toBe("aal2");

    const after = await get("/profile/two-factor", confirmed.jar);
    expect(after.status).toBe(200);
    expect(after.html).toMatch(/>On<\/span>/);
    expect(after.html).toContain("10 of 10 backup codes left");
    for (const code of codes) expect(after.html).not.toContain(code);

    const download = await post("/profile/two-factor/backup-codes", { codes: codes.join(" ") }, confirmed.jar);
    expect(download.status).toBe(200);
    expect(download.response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(download.response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="hopewell-backup-codes.txt"',
    );
    for (const code of codes) expect(download.html).toContain(code);
    expect((await post("/profile/two-factor/backup-codes", { codes: "<script>" }, confirmed.jar)).status).toBe(400);
  });
});

describe("signing in with a second factor on /auth/two-factor", () => {
  it("asks for the code after the password, refuses a wrong one and signs in at aal2, keeping the target", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const jar = await passwordStep(member.email, "/pels");
    // Not signed in yet: the password alone made no session.
    expect((await get("/pels", jar)).location).toBe("/auth?redirectTo=%2Fpels");

    const step = await get("/auth/two-factor?redirectTo=%2Fpels", jar);
    expect(step.status).toBe(200);
    expect(step.html).toContain("Authenticator code");
    expect(step.html).toContain("Use a backup code");
    // An emailed code is no second factor (tests/http/second-factor-matrix.test.ts).
    expect(step.html).not.toMatch(/email me a code/i);

    const wrong = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: wrongTotp(member.totpUri!), redirectTo: "/pels" },
      jar,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongCode));
    const malformed = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: "12ab", redirectTo: "/pels" },
      jar,
    );
    expect(malformed.status).toBe(400);
    expect(malformed.html).toContain(TWO_FACTOR_MESSAGES.codeFormat);

    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(member.totpUri!), redirectTo: "/pels" },
      jar,
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe("/pels");
    expect((await get("/pels", right.jar)).status).toBe(200);
    expect((await newestSession(member.id)).assuranceLevel).toBe("aal2");
  });

  it("takes a backup code once; the same code again is refused with its own message", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const code = member.backupCodes![0]!;
    const first = await post(
      "/auth/two-factor",
      { intent: "verify", method: "backup", code: code.replace("-", ""), redirectTo: "/pels" },
      await passwordStep(member.email),
    );
    expect(first.status).toBe(302);
    expect(first.location).toBe("/pels");
    expect((await newestSession(member.id)).assuranceLevel).toBe("aal2");

    const again = await post(
      "/auth/two-factor",
      { intent: "verify", method: "backup", code, redirectTo: "/pels" },
      await passwordStep(member.email),
    );
    expect(again.status).toBe(400);
    expect(again.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongBackupCode));
    expect((await get("/profile/two-factor", first.jar)).html).toContain("9 of 10 backup codes left");
  });

  it("says the step has lapsed when the challenge cookie is gone, and offers to sign in again", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    await passwordStep(member.email);
    // The browser drops the challenge cookie when its 10 minutes are up.
    const lapsed = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(member.totpUri!), redirectTo: "/pels" },
      "",
    );
    expect(lapsed.status).toBe(400);
    expect(lapsed.html).toContain(inPage(TWO_FACTOR_MESSAGES.stepExpired));
    expect(lapsed.html).toContain('href="/auth?redirectTo=%2Fpels"');
    expect(lapsed.html).toContain("Sign in again");
  });

  it("ends a sign-in after five wrong codes, and locks the factor after ten in a row", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const guess = (jar: string, code = wrongTotp(member.totpUri!)) =>
      post("/auth/two-factor", { intent: "verify", method: "totp", code, redirectTo: "/pels" }, jar);
    const first = await passwordStep(member.email);
    for (let i = 0; i < 5; i++) expect((await guess(first)).html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongCode));
    const ended = await guess(first, totpNow(member.totpUri!));
    expect(ended.status).toBe(429);
    expect(ended.html).toContain(inPage(TWO_FACTOR_MESSAGES.tooManyTries));

    const second = await passwordStep(member.email);
    for (let i = 0; i < 5; i++) await guess(second);
    const [row] = await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const locked = await guess(await passwordStep(member.email), totpNow(member.totpUri!));
    expect(locked.status).toBe(429);
    expect(locked.html).toContain(inPage(TWO_FACTOR_MESSAGES.locked));
  });
});

describe("an authenticator code is good once per account", () => {
  it("refuses the same code for a second sign-in, which gets no session, and for stepping up a session", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const [first, second] = [await passwordStep(member.email), await passwordStep(member.email)];
    const code = totpNow(member.totpUri!);
    const signedIn = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code, redirectTo: "/pels" },
      first,
    );
    expect(signedIn.location).toBe("/pels");
    const sessionsBefore = await db().$count(sessions, eq(sessions.userId, member.id));

    const replayed = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code, redirectTo: "/pels" },
      second,
    );
    expect(replayed.status).toBe(400);
    expect(replayed.html).toContain(inPage(TWO_FACTOR_MESSAGES.codeUsedSignIn));
    expect(replayed.html).toContain("Sign in again");
    expect(await db().$count(sessions, eq(sessions.userId, member.id))).toBe(sessionsBefore);
    expect((await get("/pels", replayed.jar)).location).toBe("/auth?redirectTo=%2Fpels");

    // A device signed in with one factor (aal1) cannot be raised with the code either.
    const aal1 = await sessionCookie(member);
    const stepUp = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code, redirectTo: "/profile" },
      aal1,
    );
    expect(stepUp.status).toBe(400);
    expect(stepUp.html).toContain(inPage(TWO_FACTOR_MESSAGES.codeUsed));
  });
});

describe("the sign-in limits count wrong guesses, not sign-ins", () => {
  it("lets a member sign in more often than the per-account limit, and still stops guessing", async () => {
    const limit = config().signInAccountLimit;
    const member = await signedInMember("manager", PASSWORD, { secondFactor: true });
    // Each sign-in: the password, then a backup code (each works once, so every one is a real sign-in).
    for (let i = 0; i < Math.min(limit + 1, member.backupCodes!.length); i++) {
      const signedIn = await post(
        "/auth/two-factor",
        { intent: "verify", method: "backup", code: member.backupCodes![i]!, redirectTo: "/pels" },
        await passwordStep(member.email),
      );
      expect(signedIn.location, `sign-in ${i + 1}`).toBe("/pels");
    }
    // The same again by password alone for a member without a factor, past the limit.
    const player = await signedInMember("player", PASSWORD, { secondFactor: false });
    for (let i = 0; i < limit + 2; i++) {
      const outcome = await signIn(
        { email: player.email, password: PASSWORD },
        new Request("http://localhost/auth"),
        "198.51.100.253",
      );
      expect(outcome.ok, `sign-in ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < limit; i++)
      expect(
        (
          await signIn(
            { email: player.email, password: "Wrong#1877" },
            new Request("http://localhost/auth"),
            "198.51.100.253",
          )
        ).ok,
      ).toBe(false);
    const stopped = await signIn(
      { email: player.email, password: PASSWORD },
      new Request("http://localhost/auth"),
      "198.51.100.253",
    );
    expect(stopped).toMatchObject({ ok: false, status: 429 });
  });
});

describe("backup codes and removing the factor", () => {
  it("makes new backup codes after the password; the old ones stop working", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const wrong = await post("/profile/two-factor", { intent: "regenerate", password: "Wrong#1877" }, member.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(TWO_FACTOR_MESSAGES.wrongPassword);
    const made = await post("/profile/two-factor", { intent: "regenerate", password: PASSWORD }, member.cookie);
    expect(made.status).toBe(200);
    expect(made.html).toContain(inPage(TWO_FACTOR_MESSAGES.regenerated));
    const fresh = codesIn(made.html);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(member.backupCodes![0]);

    const old = await post(
      "/auth/two-factor",
      { intent: "verify", method: "backup", code: member.backupCodes![0]!, redirectTo: "/pels" },
      await passwordStep(member.email),
    );
    expect(old.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongBackupCode));
    const now = await post(
      "/auth/two-factor",
      { intent: "verify", method: "backup", code: fresh[0]!, redirectTo: "/pels" },
      await passwordStep(member.email),
    );
    expect(now.status).toBe(302);
  });

  it("removes the factor after the password; signing in then needs only the password", async () => {
    const member = await signedInMember("player", PASSWORD, { secondFactor: true });
    const wrong = await post("/profile/two-factor", { intent: "remove", password: "Wrong#1877" }, member.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(TWO_FACTOR_MESSAGES.wrongPassword);
    const removed = await post("/profile/two-factor", { intent: "remove", password: PASSWORD }, member.cookie);
    expect(removed.status).toBe(200);
    expect(removed.html).toContain(inPage(TWO_FACTOR_MESSAGES.removed));
    expect(removed.html).toMatch(/>Off<\/span>/);
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
    const again = await post("/auth", {
      intent: "signin",
      email: member.email,
      password: PASSWORD,
      altcha: await solvedCaptcha(),
      redirectTo: "/pels",
    });
    expect(again.status).toBe(302);
    expect(again.location).toBe("/pels");
  });
});

describe("managers need a session proven by a second factor for the tools", () => {
  it("leads a manager without a factor to set one up, refuses their posts, and lets them in once enrolled", async () => {
    const manager = await signedInMember("manager", PASSWORD, { secondFactor: false });
    const page = await get("/tools", manager.cookie);
    expect(page.status).toBe(302);
    expect(page.location).toBe("/profile/two-factor?required=manager&redirectTo=%2Ftools");
    expect((await get("/emergency-contacts?q=ada", manager.cookie)).location).toBe(
      "/profile/two-factor?required=manager&redirectTo=%2Femergency-contacts%3Fq%3Dada",
    );
    const why = await get(page.location, manager.cookie);
    expect(why.status).toBe(200);
    expect(why.html).toContain(inPage(TWO_FACTOR_MESSAGES.managerRequired));
    const refused = await post("/tools", { intent: "walk" }, manager.cookie);
    expect(refused.status).toBe(403);
    // Their own pages stay open.
    expect((await get("/profile", manager.cookie)).status).toBe(200);

    const { cookie } = await enrolTotp({ ...manager, cookie: manager.cookie });
    expect((await get("/tools", cookie)).status).toBe(200);
  });

  it("asks a manager with a factor on a password-only session for a code, which raises that session", async () => {
    const manager = await signedInMember("manager", PASSWORD, { secondFactor: false });
    // A second device signed in before the factor existed: its session is aal1.
    const other = await signIn(
      { email: manager.email, password: PASSWORD },
      new Request("http://localhost/auth"),
      "198.51.100.250",
    );
    if (!other.ok) throw new Error(other.message);
    const otherJar = cookieHeader(other.setCookies);
    const { uri } = await enrolTotp(manager);

    const page = await get("/view-pels", otherJar);
    expect(page.status).toBe(302);
    expect(page.location).toBe("/auth/two-factor?redirectTo=%2Fview-pels");
    const step = await get(page.location, otherJar);
    expect(step.status).toBe(200);
    expect(step.html).toContain(inPage("Confirm It's You"));
    expect((await post("/view-pels", { intent: "walk" }, otherJar)).status).toBe(403);

    const wrong = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: wrongTotp(uri), redirectTo: "/view-pels" },
      otherJar,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(inPage(TWO_FACTOR_MESSAGES.wrongCode));
    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(uri), redirectTo: "/view-pels" },
      otherJar,
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe("/view-pels");
    expect((await get("/view-pels", right.jar)).status).toBe(200);
    const rows = await db()
      .select({ level: sessions.assuranceLevel })
      .from(sessions)
      .where(eq(sessions.userId, manager.id));
    expect(rows.map((r) => r.level).sort()).toEqual(["aal2", "aal2"]);
  });

  it("asks any member who has a factor for it on a session made without it, on every signed-in page", async () => {
    const player = await signedInMember("player", PASSWORD, { secondFactor: false });
    // A session proven without the factor: a device signed in before it existed (an emailed
    // code or Discord make the same kind of session, aal1).
    const other = await signIn(
      { email: player.email, password: PASSWORD },
      new Request("http://localhost/auth"),
      "198.51.100.251",
    );
    if (!other.ok) throw new Error(other.message);
    const otherJar = cookieHeader(other.setCookies);
    expect((await get("/profile", otherJar)).status).toBe(200);
    const { uri } = await enrolTotp(player);

    for (const path of ["/profile", "/events", "/letters", "/profile/two-factor"]) {
      const page = await get(path, otherJar);
      expect(page.status, path).toBe(302);
      expect(page.location, path).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(path)}`);
    }
    expect((await post("/letters", { recipient: "Ma Holt", body: "Sent without the factor." }, otherJar)).status).toBe(
      403,
    );
    // Pages open to anyone stay open.
    expect((await get("/rulebook", otherJar)).status).toBe(200);

    const right = await post(
      "/auth/two-factor",
      { intent: "verify", method: "totp", code: totpNow(uri), redirectTo: "/profile" },
      otherJar,
    );
    expect(right.location).toBe("/profile");
    expect((await get("/profile", right.jar)).status).toBe(200);
  });

  it("asks cast only with REQUIRE_CAST_2FA, and nobody with both settings off", async () => {
    const cast = await signedInMember("cast");
    const manager = await signedInMember("manager", PASSWORD, { secondFactor: false });
    const saved = config().twoFactor;
    try {
      expect((await get("/attendance", cast.cookie)).status).toBe(200);
      overrideConfig({ twoFactor: { requireManager: true, requireCast: true } });
      expect((await get("/attendance", cast.cookie)).location).toBe(
        "/profile/two-factor?required=cast&redirectTo=%2Fattendance",
      );
      overrideConfig({ twoFactor: { requireManager: false, requireCast: false } });
      expect((await get("/tools", manager.cookie)).status).toBe(200);
    } finally {
      overrideConfig({ twoFactor: saved });
    }
  });
});
