import { and, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { MEMBER_ADMIN_MESSAGES } from "~/features/member-admin/member-admin.form";
import { ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { signIn } from "~/features/accounts/accounts.server";
import { resetPassword, resetTokenIsValid } from "~/features/accounts/password-changes.server";
import {
  accounts,
  auditLog,
  invitationLinks,
  outbox,
  passkeys,
  profiles,
  sessions,
  twoFactors,
  verifications,
} from "~/platform/db/schema";
import { suspendMember } from "~/features/member-admin/member-admin.server";
import { withAppServer } from "../../helpers/app-server";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { captureLogs } from "../../helpers/logs";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { readable } from "../../helpers/html";

/**
 * The managers' page for one member's account (/tools/members/:id) and inviting a member
 * (/tools/members/invite), as a browser without JavaScript uses them: plain form posts, each
 * change asked first and made with confirm=yes, and each recorded in the audit log.
 */
const db = withTestDatabase();
const app = withAppServer();

/** Everything the server logs while this file runs: no link or token may be in it. */
const captured = captureLogs();

let addresses = 0;
const newAddress = () => `203.0.113.${++addresses}`;

const page = (path: string, cookie: string) =>
  fetch(app().url + path, { headers: { Cookie: cookie }, redirect: "manual" });
const memberPath = (id: string) => `/tools/members/${encodeURIComponent(id)}`;
/** Posts a change to the member's page, confirmed as the confirmation step's button does. */
const change = (cookie: string, id: string, fields: Record<string, string>) =>
  postForm(app().url, memberPath(id), { ...fields, confirm: "yes" }, cookie);
const auditOf = (subjectId: string) =>
  db().select().from(auditLog).where(eq(auditLog.subjectId, subjectId)).orderBy(auditLog.createdAt);
const sessionsOf = async (userId: string) =>
  (await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;
const isSignedIn = async (cookie: string) => (await page("/profile", cookie)).status === 200;
const profileOf = async (id: string) => (await db().select().from(profiles).where(eq(profiles.id, id)))[0]!;
const emailsTo = (to: string) =>
  db()
    .select()
    .from(outbox)
    .where(sql`${outbox.payload}->>'to' = ${to}`)
    .orderBy(desc(outbox.sequence));

async function addPasskey(userId: string, name: string) {
  const id = `pk${Math.random().toString(36).slice(2, 12)}`;
  await db()
    .insert(passkeys)
    .values({
      id,
      userId,
      name,
      publicKey: "test-key",
      credentialID: `cred-${id}`,
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
  return id;
}

describe("a member's account, for managers", () => {
  it("shows who they are, how they sign in, their second factors and sessions, reached from the Roles list", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player", undefined, { secondFactor: true });
    await addPasskey(member.id, "Blue key");
    await db()
      .insert(accounts)
      .values({ id: `discord-${member.id}`, userId: member.id, accountId: "discord-user-1", providerId: "discord" });

    const list = await (await page(`/tools?tab=roles&q=${encodeURIComponent(member.email)}`, manager.cookie)).text();
    expect(list).toContain(`href="${memberPath(member.id)}"`);
    expect(list).toContain('href="/tools/members/invite"');

    const response = await page(memberPath(member.id), manager.cookie);
    expect(response.status).toBe(200);
    const html = readable(await response.text());
    expect(html).toMatch(new RegExp(`<h1[^>]*>${member.firstName} player</h1>`));
    expect(html).toContain(member.email);
    expect(html).toMatch(/<dt[^>]*>Role<\/dt><dd[^>]*>Player<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Status<\/dt><dd[^>]*>Active<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Password<\/dt><dd[^>]*>Set<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Discord<\/dt><dd[^>]*>Linked<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Authenticator app<\/dt><dd[^>]*>On<\/dd>/);
    expect(html).toContain("Blue key");
    const live = await sessionsOf(member.id);
    expect(live).toBeGreaterThan(0);
    expect(html).toContain(`Signed in on ${live} device${live === 1 ? "" : "s"}.`);
    expect(html).toMatch(new RegExp(`<a [^>]*href="/tools/members/${member.id}/delete"[^>]*>Delete account…</a>`));
    // Never a secret of the account.
    const [factor] = await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(html).not.toContain(factor!.secret);
  });

  it("is refused to cast and players, and an unknown or malformed member id gets a clear 404 page", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("applicant");
    for (const role of ["cast", "player"] as const) {
      const other = await signedInMember(role);
      const read = await page(memberPath(member.id), other.cookie);
      expect(read.status, role).toBe(302);
      expect(read.headers.get("Location")).toBe("/");
      const post = await change(other.cookie, member.id, { intent: "suspend", reason: "" });
      expect(post.status, role).toBe(403);
      expect(
        (
          await postForm(
            app().url,
            "/tools/members/invite",
            { firstName: "A", lastName: "B", email: "ab@example.com", confirm: "yes" },
            other.cookie,
          )
        ).status,
      ).toBe(403);
    }
    expect((await profileOf(member.id)).banned).toBe(false);

    for (const id of ["no-such-member", "a".repeat(101), "bad id", "x.y"]) {
      const response = await page(`/tools/members/${encodeURIComponent(id)}`, manager.cookie);
      expect(response.status, id).toBe(404);
      const html = readable(await response.text());
      expect(html).toMatch(/<h1[^>]*>Member not found<\/h1>/);
      expect(html).toContain(MEMBER_ADMIN_MESSAGES.notFound);
      expect(html).toContain('href="/tools?tab=roles"');
    }
    const posted = await change(manager.cookie, "no-such-member", { intent: "end-sessions" });
    expect(posted.status).toBe(404);
  });

  it("updates the name and email after a confirmation step, keeps emails unique, and records it", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("applicant");
    const other = await signedInMember("applicant");

    const asked = await postForm(
      app().url,
      memberPath(member.id),
      { intent: "details", firstName: "Nell", lastName: "Voss", email: "NELL.VOSS@example.com" },
      manager.cookie,
    );
    expect(asked.status).toBe(200);
    const step = readable(await asked.text());
    expect(step).toContain(`Save ${member.firstName} applicant's details as Nell Voss, nell.voss@example.com?`);
    expect(step).toContain('name="confirm" value="yes"');
    expect((await profileOf(member.id)).firstName).toBe(member.firstName);
    expect(await auditOf(member.id)).toEqual([]);

    // Another account's email, in any case, is refused with a clear message and changes nothing.
    const taken = await change(manager.cookie, member.id, {
      intent: "details",
      firstName: "Nell",
      lastName: "Voss",
      email: other.email.toUpperCase(),
    });
    expect(taken.status).toBe(409);
    expect(readable(await taken.text())).toContain(MEMBER_ADMIN_MESSAGES.emailTaken);
    expect((await profileOf(member.id)).email).toBe(member.email);

    const saved = await change(manager.cookie, member.id, {
      intent: "details",
      firstName: "Nell",
      lastName: "Voss",
      email: "nell.voss@example.com",
    });
    expect(saved.status).toBe(200);
    expect(readable(await saved.text())).toContain("Details saved.");
    const profile = await profileOf(member.id);
    expect(profile).toMatchObject({
      firstName: "Nell",
      lastName: "Voss",
      name: "Nell Voss",
      email: "nell.voss@example.com",
    });
    expect(await auditOf(member.id)).toMatchObject([
      { actorId: manager.id, action: "member.update", details: { changed: ["name", "email"] } },
    ]);
    // The old address is told; the new one signs in.
    const [notice] = await emailsTo(member.email);
    expect(notice!.payload).toMatchObject({ subject: "Your Hopewell email address was changed by a manager" });
    expect(
      (
        await signIn(
          { email: "nell.voss@example.com", password: member.password },
          new Request("http://localhost/auth"),
          newAddress(),
        )
      ).ok,
    ).toBe(true);

    // Bad input gets the form's messages.
    const bad = await change(manager.cookie, member.id, {
      intent: "details",
      firstName: "",
      lastName: "Voss",
      email: "not-an-email",
    });
    expect(bad.status).toBe(400);
    expect(readable(await bad.text())).toContain("Please enter a valid email address");
  });

  it("changes the role through the audited role change, never leaving the site without a manager", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("applicant");
    const asked = readable(
      await (await postForm(app().url, memberPath(member.id), { intent: "role", role: "cast" }, manager.cookie)).text(),
    );
    expect(asked).toContain(`Change ${member.firstName} applicant's role from Applicant to Cast?`);
    const changed = await change(manager.cookie, member.id, { intent: "role", role: "cast" });
    expect(readable(await changed.text())).toContain("Role changed to Cast.");
    expect((await profileOf(member.id)).role).toBe("cast");
    expect(await auditOf(member.id)).toMatchObject([
      { actorId: manager.id, action: "role.change", details: { from: "applicant", to: "cast" } },
    ]);
    expect((await change(manager.cookie, member.id, { intent: "role", role: "sheriff" })).status).toBe(400);
  });
});

describe("suspending and restoring", () => {
  it("ends the member's sessions at once and refuses every sign-in with the message, until restored", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    await db().update(profiles).set({ emailVerified: true }).where(eq(profiles.id, member.id));
    const second = await signIn(
      { email: member.email, password: member.password },
      new Request("http://localhost/auth"),
      newAddress(),
    );
    expect(second.ok).toBe(true);
    expect(await sessionsOf(member.id)).toBe(2);
    expect(await isSignedIn(member.cookie)).toBe(true);

    const asked = readable(
      await (
        await postForm(app().url, memberPath(member.id), { intent: "suspend", reason: "Unpaid dues" }, manager.cookie)
      ).text(),
    );
    expect(asked).toContain(`Suspend ${member.firstName} player?`);
    expect((await profileOf(member.id)).banned).toBe(false);

    const suspended = await change(manager.cookie, member.id, { intent: "suspend", reason: "Unpaid dues" });
    expect(suspended.status).toBe(200);
    expect(readable(await suspended.text())).toContain("Account suspended. 2 sessions ended.");
    expect(await profileOf(member.id)).toMatchObject({ banned: true, banReason: "Unpaid dues" });
    expect(await sessionsOf(member.id)).toBe(0);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await auditOf(member.id)).toMatchObject([
      { actorId: manager.id, action: "member.suspend", details: { reason: "Unpaid dues", sessionsEnded: 2 } },
    ]);
    expect(readable(await (await page(memberPath(member.id), manager.cookie)).text())).toMatch(
      /<dt[^>]*>Status<\/dt><dd[^>]*>Suspended: Unpaid dues<\/dd>/,
    );

    // The password sign-in page says why.
    const byPassword = await postForm(app().url, "/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
    });
    expect(byPassword.status).toBe(403);
    expect(byPassword.headers.getSetCookie().some((c) => /session/i.test(c) && !/max-age=0/i.test(c))).toBe(false);
    expect(readable(await byPassword.text())).toContain(ACCOUNT_SUSPENDED_MESSAGE);

    // So does signing in with an emailed code (the code read from the outbox, as the email carries it).
    const asking = await postForm(app().url, "/auth/email-code", {
      intent: "request",
      email: member.email,
      altcha: await solvedCaptcha(),
    });
    expect(asking.status).toBe(302);
    const [codeEmail] = await emailsTo(member.email);
    const code = (codeEmail!.payload as { text: string }).text.match(
      /Your code to sign in to Hopewell is (\d{6})/,
    )![1]!;
    const byCode = await postForm(app().url, "/auth/email-code", { intent: "verify", email: member.email, code });
    expect(byCode.status).toBe(403);
    expect(readable(await byCode.text())).toContain(ACCOUNT_SUSPENDED_MESSAGE);
    expect(await sessionsOf(member.id)).toBe(0);

    const restored = await change(manager.cookie, member.id, { intent: "restore" });
    expect(readable(await restored.text())).toContain("Account restored.");
    expect((await profileOf(member.id)).banned).toBe(false);
    expect((await auditOf(member.id)).map((e) => e.action)).toEqual(["member.suspend", "member.restore"]);
    const again = await signIn(
      { email: member.email, password: member.password },
      new Request("http://localhost/auth"),
      newAddress(),
    );
    expect(again.ok).toBe(true);
  });

  it("refuses a manager suspending themselves, and never suspends the last manager who can sign in", async () => {
    const manager = await signedInMember("manager");
    const self = await change(manager.cookie, manager.id, { intent: "suspend", reason: "" });
    expect(self.status).toBe(409);
    expect(readable(await self.text())).toContain(MEMBER_ADMIN_MESSAGES.notYourself);
    expect((await profileOf(manager.id)).banned).toBe(false);

    // Every other manager is suspended or demoted: this one is the last who can sign in.
    await db()
      .update(profiles)
      .set({ banned: true })
      .where(and(eq(profiles.role, "manager"), sql`${profiles.id} <> ${manager.id}`));
    const outcome = await suspendMember({ id: "someone-else" }, manager.id, "");
    expect(outcome).toEqual({ outcome: "last-manager" });
    expect((await profileOf(manager.id)).banned).toBe(false);
    expect(await auditOf(manager.id)).toEqual([]);
    await db().update(profiles).set({ banned: false }).where(eq(profiles.role, "manager"));
  });
});

describe("second factors and sessions", () => {
  it("removes a member's authenticator app (a lost phone), recorded", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player", undefined, { secondFactor: true });
    const asked = readable(
      await (
        await postForm(app().url, memberPath(member.id), { intent: "remove-authenticator" }, manager.cookie)
      ).text(),
    );
    expect(asked).toContain(`Remove ${member.firstName} player's authenticator app and its backup codes?`);
    const removed = await change(manager.cookie, member.id, { intent: "remove-authenticator" });
    expect(readable(await removed.text())).toContain("Authenticator app removed.");
    expect((await profileOf(member.id)).twoFactorEnabled).toBe(false);
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
    expect(await auditOf(member.id)).toMatchObject([
      { actorId: manager.id, action: "member.factor_remove", details: { factor: "authenticator" } },
    ]);
    // The password alone signs in now.
    const signedIn = await signIn(
      { email: member.email, password: member.password },
      new Request("http://localhost/auth"),
      newAddress(),
    );
    expect(signedIn).toMatchObject({ ok: true, secondStep: false });
    const none = await change(manager.cookie, member.id, { intent: "remove-authenticator" });
    expect(none.status).toBe(409);
  });

  it("removes one passkey of the member's, and no one else's", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const stranger = await signedInMember("player");
    const lost = await addPasskey(member.id, "Old phone");
    const kept = await addPasskey(member.id, "Laptop");
    const theirs = await addPasskey(stranger.id, "Stranger's key");

    const asked = readable(
      await (
        await postForm(app().url, memberPath(member.id), { intent: "remove-passkey", passkeyId: lost }, manager.cookie)
      ).text(),
    );
    expect(asked).toContain(`Remove the passkey “Old phone” from ${member.firstName} player's account?`);
    const removed = await change(manager.cookie, member.id, { intent: "remove-passkey", passkeyId: lost });
    expect(readable(await removed.text())).toContain("Passkey “Old phone” removed.");
    expect(
      (await db().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, member.id))).map((p) => p.id),
    ).toEqual([kept]);
    expect(await auditOf(member.id)).toMatchObject([
      { action: "member.factor_remove", details: { factor: "passkey", name: "Old phone" } },
    ]);

    const wrong = await change(manager.cookie, member.id, { intent: "remove-passkey", passkeyId: theirs });
    expect(wrong.status).toBe(404);
    expect(readable(await wrong.text())).toContain(MEMBER_ADMIN_MESSAGES.passkeyGone);
    expect(await db().select().from(passkeys).where(eq(passkeys.id, theirs))).toHaveLength(1);
  });

  it("ends all of a member's sessions, recorded with how many", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    await signIn(
      { email: member.email, password: member.password },
      new Request("http://localhost/auth"),
      newAddress(),
    );
    expect(await sessionsOf(member.id)).toBe(2);
    const asked = readable(
      await (await postForm(app().url, memberPath(member.id), { intent: "end-sessions" }, manager.cookie)).text(),
    );
    expect(asked).toContain(`Sign ${member.firstName} player out on every device (2 sessions)?`);
    expect(await sessionsOf(member.id)).toBe(2);
    const ended = await change(manager.cookie, member.id, { intent: "end-sessions" });
    expect(readable(await ended.text())).toContain("2 sessions ended.");
    expect(await sessionsOf(member.id)).toBe(0);
    expect(await isSignedIn(member.cookie)).toBe(false);
    expect(await isSignedIn(manager.cookie)).toBe(true);
    expect(await auditOf(member.id)).toMatchObject([
      { actorId: manager.id, action: "member.sessions_end", details: { count: 2 } },
    ]);
  });
});

describe("inviting a member and handing over a password link", () => {
  it("makes the account without a password and emails a link that sets it, never logged", async () => {
    const manager = await signedInMember("manager");
    const email = `invited-${Date.now()}@example.com`;
    const form = await page("/tools/members/invite", manager.cookie);
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toMatch(/<h1[^>]*>Invite a member<\/h1>/);
    expect(formHtml).toMatch(/<option value="applicant" selected="">Applicant<\/option>/);

    const asked = await postForm(
      app().url,
      "/tools/members/invite",
      { firstName: "Ada", lastName: "Lowe", email, role: "applicant" },
      manager.cookie,
    );
    expect(readable(await asked.text())).toContain(`Invite Ada Lowe as Applicant? An account is made for ${email}`);
    expect(await db().select().from(profiles).where(eq(profiles.email, email))).toEqual([]);

    const invited = await postForm(
      app().url,
      "/tools/members/invite",
      { firstName: "Ada", lastName: "Lowe", email, role: "applicant", confirm: "yes" },
      manager.cookie,
    );
    expect(invited.status).toBe(302);
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, email));
    expect(profile).toMatchObject({ firstName: "Ada", lastName: "Lowe", role: "applicant", banned: false });
    expect(invited.headers.get("Location")).toBe(`${memberPath(profile!.id)}?invited=sent`);
    expect(await db().select().from(accounts).where(eq(accounts.userId, profile!.id))).toEqual([]);
    expect(await auditOf(profile!.id)).toMatchObject([
      { actorId: manager.id, action: "member.invite", details: { role: "applicant" } },
    ]);
    const shown = readable(await (await page(invited.headers.get("Location")!, manager.cookie)).text());
    expect(shown).toContain("Invitation sent.");
    expect(shown).toMatch(/<dt[^>]*>Password<\/dt><dd[^>]*>Not set yet<\/dd>/);

    const [mail] = await emailsTo(email);
    const payload = mail!.payload as { subject: string; text: string };
    expect(payload.subject).toBe("You are invited to the Hopewell members' site");
    const link = payload.text.match(/https?:\/\/\S+\/reset-password\?token=([^&\s]+)/)!;
    const token = decodeURIComponent(link[1]!);
    expect(await resetTokenIsValid(token)).toBe(true);
    expect((await resetPassword(token, "Silver$Seam9")).ok).toBe(true);
    expect(
      (await signIn({ email, password: "Silver$Seam9" }, new Request("http://localhost/auth"), newAddress())).ok,
    ).toBe(true);
    expect(await resetTokenIsValid(token)).toBe(false);
    expect(captured.join("\n")).not.toContain(token);

    // The same address again is refused with a clear message.
    const twice = await postForm(
      app().url,
      "/tools/members/invite",
      { firstName: "Ada", lastName: "Again", email: email.toUpperCase(), role: "applicant", confirm: "yes" },
      manager.cookie,
    );
    expect(twice.status).toBe(409);
    expect(readable(await twice.text())).toContain(MEMBER_ADMIN_MESSAGES.emailTaken);
    expect(await db().select().from(profiles).where(eq(profiles.email, email))).toHaveLength(1);
  });

  it("makes invitation links that work for 7 days, while a hand-over link works for an hour", async () => {
    const manager = await signedInMember("manager");
    const email = `invited-week-${Date.now()}@example.com`;
    const invited = await postForm(
      app().url,
      "/tools/members/invite",
      { firstName: "Bea", lastName: "Long", email, role: "player", confirm: "yes" },
      manager.cookie,
    );
    expect(invited.status).toBe(302);
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, email));
    const [mail] = await emailsTo(email);
    const payload = mail!.payload as { text: string };
    expect(payload.text).toContain("within 7 days");
    const invitation = decodeURIComponent(payload.text.match(/\/reset-password\?token=([^&\s]+)/)![1]!);
    // A second member's invitation, never used, for the week's end.
    const otherEmail = `invited-week-other-${Date.now()}@example.com`;
    expect(
      (
        await postForm(
          app().url,
          "/tools/members/invite",
          { firstName: "Cal", lastName: "Long", email: otherEmail, role: "player", confirm: "yes" },
          manager.cookie,
        )
      ).status,
    ).toBe(302);
    const unused = decodeURIComponent(
      ((await emailsTo(otherEmail))[0]!.payload as { text: string }).text.match(
        /\/reset-password\?token=([^&\s]+)/,
      )![1]!,
    );
    const handOver = decodeURIComponent(
      readable(await (await change(manager.cookie, profile!.id, { intent: "reset-link" })).text()).match(
        /value="https?:\/\/[^"]+\/reset-password\?token=([^"]+)"/,
      )![1]!,
    );

    // The stored tokens carry their own expiry: a week and an hour from now.
    const expiry = async (token: string) => {
      const [row] = await db()
        .select({ expiresAt: verifications.expiresAt })
        .from(verifications)
        .where(sql`${verifications.identifier} like ${`%${token}`}`);
      return row!.expiresAt.getTime() - Date.now();
    };
    expect(Math.abs((await expiry(invitation)) - 7 * 24 * 3600_000)).toBeLessThan(120_000);
    expect(Math.abs((await expiry(handOver)) - 3600_000)).toBeLessThan(120_000);

    // Three hours on, the invitation still works and the hand-over link does not; eight days on, an invitation no longer works.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3 * 3600_000 });
    try {
      expect(await resetTokenIsValid(handOver)).toBe(false);
      expect(await resetTokenIsValid(invitation)).toBe(true);
      expect((await resetPassword(invitation, "Silver$Seam9")).ok).toBe(true);
      vi.setSystemTime(Date.now() + 8 * 24 * 3600_000);
      expect(await resetTokenIsValid(unused)).toBe(false);
      expect((await resetPassword(unused, "Other$Seam9")).ok).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    expect(
      (await signIn({ email, password: "Silver$Seam9" }, new Request("http://localhost/auth"), newAddress())).ok,
    ).toBe(true);
  });

  it("sends an invitation again with a new link that replaces the earlier one, whose page says so", async () => {
    const manager = await signedInMember("manager");
    const email = `invited-again-${Date.now()}@example.com`;
    expect(
      (
        await postForm(
          app().url,
          "/tools/members/invite",
          { firstName: "Dee", lastName: "Again", email, role: "player", confirm: "yes" },
          manager.cookie,
        )
      ).status,
    ).toBe(302);
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, email));
    const tokenIn = (mail: { payload: unknown } | undefined) =>
      decodeURIComponent((mail!.payload as { text: string }).text.match(/\/reset-password\?token=([^&\s]+)/)![1]!);
    const first = tokenIn((await emailsTo(email))[0]);

    const resend = await change(manager.cookie, profile!.id, { intent: "resend-invite" });
    expect(resend.status).toBe(200);
    expect(readable(await resend.text())).toContain(
      "Invitation sent again. The link in the earlier invitation no longer works.",
    );
    const mails = await emailsTo(email);
    expect(mails).toHaveLength(2);
    const second = tokenIn(mails[0]);
    expect(second).not.toBe(first);

    // The first email's link opens on a page that says a newer one replaced it, and sets no password.
    expect(await resetTokenIsValid(first)).toBe(false);
    const replaced = readable(
      await (await page(`/reset-password?token=${encodeURIComponent(first)}&welcome=1`, "")).text(),
    );
    expect(replaced).toContain(SITE_MESSAGES.invitationReplaced);
    expect(replaced).not.toContain('name="password"');
    const refused = await postForm(app().url, "/reset-password", {
      token: first,
      welcome: "1",
      password: "Silver$Seam9",
      confirmPassword: "Silver$Seam9",
    });
    expect(refused.status).toBe(400);
    expect(readable(await refused.text())).toContain(SITE_MESSAGES.invitationReplaced);
    expect(await db().select().from(accounts).where(eq(accounts.userId, profile!.id))).toHaveLength(0);

    // Only hashes of the links are kept, never a link itself.
    const kept = await db().select().from(invitationLinks).where(eq(invitationLinks.memberId, profile!.id));
    expect(kept).toHaveLength(2);
    expect(JSON.stringify(kept)).not.toContain(first);

    // The newest link works, once; the replaced one still sets nothing afterwards.
    expect((await resetPassword(second, "Silver$Seam9")).ok).toBe(true);
    expect(
      (await signIn({ email, password: "Silver$Seam9" }, new Request("http://localhost/auth"), newAddress())).ok,
    ).toBe(true);
    expect((await resetPassword(first, "Other$Seam9")).ok).toBe(false);
    expect((await resetPassword(second, "Other$Seam9")).ok).toBe(false);
    expect(
      (await signIn({ email, password: "Silver$Seam9" }, new Request("http://localhost/auth"), newAddress())).ok,
    ).toBe(true);
  });

  it("welcomes an invited member to choose their password and tells them their account is ready; a reset link still speaks of a new password", async () => {
    const manager = await signedInMember("manager");
    const email = `invited-welcome-${Date.now()}@example.com`;
    expect(
      (
        await postForm(
          app().url,
          "/tools/members/invite",
          { firstName: "Cy", lastName: "Welcome", email, role: "player", confirm: "yes" },
          manager.cookie,
        )
      ).status,
    ).toBe(302);
    const [mail] = await emailsTo(email);
    const link = new URL((mail!.payload as { text: string }).text.match(/https?:\/\/\S+\/reset-password\?\S+/)![0]);
    expect(link.searchParams.get("welcome")).toBe("1");
    const welcome = readable(await (await page(link.pathname + link.search, "")).text());
    expect(welcome).toContain(SITE_MESSAGES.welcomeHeading);
    expect(welcome).not.toContain("Choose a New Password");
    expect(welcome).toContain('name="welcome" value="1"');
    const token = link.searchParams.get("token")!;
    const done = readable(
      await (
        await postForm(app().url, "/reset-password", {
          token,
          welcome: "1",
          password: "Silver$Seam9",
          confirmPassword: "Silver$Seam9",
        })
      ).text(),
    );
    expect(done).toContain(SITE_MESSAGES.accountReady);
    expect(done).toContain("url=/auth");
    expect(done).not.toContain(MESSAGES.passwordUpdated);
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, email));
    const reset = decodeURIComponent(
      readable(await (await change(manager.cookie, profile!.id, { intent: "reset-link" })).text()).match(
        /value="https?:\/\/[^"]+\/reset-password\?token=([^"]+)"/,
      )![1]!,
    );
    expect(readable(await (await page(`/reset-password?token=${encodeURIComponent(reset)}`, "")).text())).toContain(
      "Choose a New Password",
    );
  });

  it("shows a one-time password link once, on the page: not emailed, not logged, audited without it", async () => {
    const manager = await signedInMember("manager");
    const member = await signedInMember("player");
    const emailsBefore = (await emailsTo(member.email)).length;
    const asked = readable(
      await (await postForm(app().url, memberPath(member.id), { intent: "reset-link" }, manager.cookie)).text(),
    );
    expect(asked).toContain(`Make a one-time link for ${member.firstName} player to choose a new password?`);
    const made = await change(manager.cookie, member.id, { intent: "reset-link" });
    expect(made.status).toBe(200);
    const html = readable(await made.text());
    const link = html.match(/value="(https?:\/\/[^"]+\/reset-password\?token=([^"]+))"/)!;
    const token = decodeURIComponent(link[2]!);
    expect(html).toContain("One-time password link");
    expect(await emailsTo(member.email)).toHaveLength(emailsBefore);
    const entries = await auditOf(member.id);
    expect(entries).toMatchObject([{ actorId: manager.id, action: "member.reset_link" }]);
    expect(JSON.stringify(entries)).not.toContain(token);
    expect(captured.join("\n")).not.toContain(token);
    // The page shows it only in that answer.
    expect(await (await page(memberPath(member.id), manager.cookie)).text()).not.toContain(token);

    expect((await resetPassword(token, "Copper&Vein7")).ok).toBe(true);
    expect(
      (
        await signIn(
          { email: member.email, password: "Copper&Vein7" },
          new Request("http://localhost/auth"),
          newAddress(),
        )
      ).ok,
    ).toBe(true);

    const log = readable(await (await page("/tools?tab=audit", manager.cookie)).text());
    expect(log).toMatch(/Test\d+ manager made a one-time password link to hand to Test\d+ player/);
  });
});
