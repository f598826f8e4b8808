import { and, count, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCORD_NOTICES, DISCORD_UNLINK_MESSAGES } from "~/features/discord/discord-sign-in";
import { config, overrideConfig, parseConfig } from "~/platform/config.server";
import { accounts, profiles, rateLimits, sessions } from "~/platform/db/schema";
import { DISCORD_LIMITS } from "~/features/discord/discord-sign-in.server";
import { logger } from "~/platform/logger.server";
import { startAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { discordIdentity, startMockDiscord, type MockDiscord } from "../../helpers/discord-oauth";
import { signedInMember } from "../../helpers/members";
import { readable } from "../../helpers/html";

/**
 * Sign-in with Discord, linking and unlinking, over real HTTP against a real OAuth server run
 * here (oauth2-mock-server) in Discord's place: the site uses the same code as with Discord,
 * only its three addresses point here.
 */
const db = withTestDatabase();
let mock: MockDiscord;
let server: Awaited<ReturnType<typeof startAppServer>>;

beforeAll(async () => {
  mock = await startMockDiscord();
  // Before the auth library is first used (it reads the provider's settings once).
  overrideConfig({ discordSignIn: parseConfig(mock.env).discordSignIn });
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
});

/** One browser's cookies. */
type Jar = Map<string, string>;

function jarOf(cookieHeader = ""): Jar {
  const jar: Jar = new Map();
  for (const pair of cookieHeader.split("; ").filter(Boolean)) {
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return jar;
}

function remember(jar: Jar, response: Response): Response {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const at = pair!.indexOf("=");
    const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1)];
    if (value === "" || /max-age=0/i.test(cookie) || /expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name);
    else jar.set(name, value);
  }
  return response;
}

const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

async function get(jar: Jar, path: string): Promise<Response> {
  return remember(jar, await fetch(server.url + path, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" }));
}

async function post(
  jar: Jar,
  path: string,
  fields: Record<string, string>,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  return remember(
    jar,
    await fetch(server.url + path, {
      method: "POST",
      headers: {
        Origin: server.url,
        Cookie: cookieHeader(jar),
        "Content-Type": "application/x-www-form-urlencoded",
        ...extraHeaders,
      },
      body: new URLSearchParams(fields),
      redirect: "manual",
    }),
  );
}

/** A page's text as a member reads it (React escapes quotes and ampersands). */
async function pageText(response: Response): Promise<string> {
  return readable(await response.text());
}

/**
 * Leaves for Discord with the form at `path`, is `login` there (with the account's `email`),
 * and comes back through our callback, whose answer is returned. `alter` changes Discord's
 * answer first, as an attacker might.
 */
async function viaDiscord(
  jar: Jar,
  start: { path: string; fields: Record<string, string> },
  login: string,
  options: { email?: string; alter?: (back: URL) => void } = {},
): Promise<{ answer: Response; back: URL }> {
  const leaving = await post(jar, start.path, start.fields);
  expect(leaving.status).toBe(302);
  const authorize = new URL(leaving.headers.get("Location")!);
  expect(authorize.origin + authorize.pathname).toBe(`${mock.url}/authorize`);
  expect(authorize.searchParams.get("scope")).toBe("identify email");
  authorize.searchParams.set("login", login);
  if (options.email) authorize.searchParams.set("email", options.email);
  const atDiscord = await fetch(authorize, { redirect: "manual" });
  expect(atDiscord.status).toBe(302);
  const back = new URL(atDiscord.headers.get("Location")!);
  expect(back.pathname).toBe("/auth/discord/callback");
  options.alter?.(back);
  return { answer: await get(jar, back.pathname + back.search), back };
}

const signInStart = (redirectTo?: string) => ({
  path: "/auth/discord",
  fields: redirectTo ? { redirectTo } : ({} as Record<string, string>),
});
const linkStart = { path: "/profile/sign-in-methods", fields: { intent: "link" } };

async function discordAccountsOf(userId: string) {
  return db()
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "discord")));
}

async function profileCount(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(profiles);
  return row!.n;
}

describe("sign-in with Discord", () => {
  it("is nowhere while it is not configured", async () => {
    const member = await signedInMember("player");
    const configured = config().discordSignIn;
    overrideConfig({ discordSignIn: undefined });
    try {
      const anonymous = jarOf();
      expect(await pageText(await get(anonymous, "/auth"))).not.toContain("Sign in with Discord");
      expect((await post(anonymous, "/auth/discord", {})).status).toBe(404);
      expect((await get(anonymous, "/auth/discord/callback?code=x&state=y")).status).toBe(404);
      const jar = jarOf(member.cookie);
      expect(await pageText(await get(jar, "/profile"))).not.toContain("Sign-in methods");
      expect((await get(jar, "/profile/sign-in-methods")).status).toBe(404);
      expect((await post(jar, "/profile/sign-in-methods", { intent: "link" })).status).toBe(404);
    } finally {
      overrideConfig({ discordSignIn: configured });
    }
    const jar = jarOf(member.cookie);
    expect(await pageText(await get(jarOf(), "/auth"))).toContain("Sign in with Discord");
    expect(await pageText(await get(jar, "/profile"))).toContain('href="/profile/sign-in-methods"');
  });

  it("links Discord from the profile, shows its username and keeps its tokens encrypted", async () => {
    const member = await signedInMember("player");
    const jar = jarOf(member.cookie);
    const before = await pageText(await get(jar, "/profile/sign-in-methods"));
    expect(before).toContain("<h2");
    expect(before).toContain("Sign-in methods");
    expect(before).toMatch(/Set: you can sign in with your email and password/);
    expect(before).toContain("Not linked.");

    const { answer } = await viaDiscord(jar, linkStart, "nelly");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/profile/sign-in-methods?discord=linked");
    const after = await pageText(await get(jar, answer.headers.get("Location")!));
    expect(after).toContain(DISCORD_NOTICES.linked);
    expect(after).toContain("@nelly");
    expect(after).toContain("Unlink Discord");

    const [linked, ...more] = await discordAccountsOf(member.id);
    expect(more).toEqual([]);
    expect(linked!.accountId).toBe(discordIdentity("nelly").id);
    expect(linked!.accessToken).toBeTruthy();
    // The mock's tokens are JWTs ("eyJ..."): stored, they are ciphertext.
    expect(linked!.accessToken).not.toMatch(/^eyJ/);
    // Linking never changes the member's own name or email.
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, member.id));
    expect(profile!.email).toBe(member.email);
    expect(profile!.name).not.toContain("Nelly");
  });

  it("signs in the member a Discord identity is linked to, and returns where they were going", async () => {
    const member = await signedInMember("player");
    await viaDiscord(jarOf(member.cookie), linkStart, "wyatt");

    const browser = jarOf();
    const sessionsBefore = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    const { answer } = await viaDiscord(browser, signInStart("/events"), "wyatt");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/events");
    const profile = await pageText(await get(browser, "/profile"));
    expect(profile).toContain(member.email);

    const sessionsAfter = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    expect(sessionsAfter.length).toBe(sessionsBefore.length + 1);
    const created = sessionsAfter.find((s) => !sessionsBefore.some((b) => b.id === s.id))!;
    expect(created.assuranceLevel).toBe("aal1");
    expect(created.ipAddress).toBe("127.0.0.1");
  });

  it("shows Sign in with Discord as a plain form that keeps redirectTo", async () => {
    const html = await pageText(await get(jarOf(), "/auth?redirectTo=%2Fevents"));
    const form = /<form[^>]*action="\/auth\/discord"[^>]*>/.exec(html)?.[0];
    expect(form).toContain('method="post"');
    expect(html).toContain('name="redirectTo" value="/events"');
    const csp = (await get(jarOf(), "/auth")).headers.get("Content-Security-Policy")!;
    expect(csp).toContain(`form-action 'self' ${mock.url}`);
  });

  it("refuses to link an identity already linked to another account", async () => {
    const first = await signedInMember("player");
    await viaDiscord(jarOf(first.cookie), linkStart, "doc");
    const second = await signedInMember("player");
    const jar = jarOf(second.cookie);
    const { answer } = await viaDiscord(jar, linkStart, "doc");
    expect(answer.headers.get("Location")).toBe("/profile/sign-in-methods?discord=linked-elsewhere");
    const page = await pageText(await get(jar, answer.headers.get("Location")!));
    expect(page).toContain(DISCORD_NOTICES["linked-elsewhere"]);
    expect(page).toContain("Not linked.");
    expect(await discordAccountsOf(second.id)).toEqual([]);
    expect(await discordAccountsOf(first.id)).toHaveLength(1);
  });

  it("refuses an unknown identity without creating an account, even one with a member's email", async () => {
    const member = await signedInMember("player");
    // A confirmed email, which the library would otherwise trust to link a provider's identity.
    await db().update(profiles).set({ emailVerified: true }).where(eq(profiles.id, member.id));
    const profilesBefore = await profileCount();
    for (const [login, email] of [
      ["stranger", undefined],
      ["lookalike", member.email],
    ] as const) {
      const browser = jarOf();
      const { answer } = await viaDiscord(browser, signInStart("/events"), login, { email });
      expect(answer.headers.get("Location")).toBe("/auth?discord=not-linked&redirectTo=%2Fevents");
      expect(
        answer.headers.getSetCookie().some((c) => /session/i.test(c.split("=")[0]!) && !/max-age=0/i.test(c)),
      ).toBe(false);
      const page = await pageText(await get(browser, answer.headers.get("Location")!));
      expect(page).toContain(DISCORD_NOTICES["not-linked"]);
      // Still signed out: the member area sends them to sign in.
      expect((await get(browser, "/profile")).headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    }
    expect(await profileCount()).toBe(profilesBefore);
    expect(await discordAccountsOf(member.id)).toEqual([]);
    const strangers = await db()
      .select()
      .from(accounts)
      .where(eq(accounts.accountId, discordIdentity("stranger").id));
    expect(strangers).toEqual([]);
  });

  it("answers a missing, altered or replayed state with a message, never an error", async () => {
    const member = await signedInMember("player");
    await viaDiscord(jarOf(member.cookie), linkStart, "belle");

    const altered = await viaDiscord(jarOf(), signInStart(), "belle", {
      alter: (back) => back.searchParams.set("state", `${back.searchParams.get("state")}x`),
    });
    expect(altered.answer.status).toBe(302);
    expect(altered.answer.headers.get("Location")).toBe("/auth?discord=expired");
    expect(await pageText(await get(jarOf(), "/auth?discord=expired"))).toContain(DISCORD_NOTICES.expired);

    const missing = await viaDiscord(jarOf(), signInStart(), "belle", {
      alter: (back) => back.searchParams.delete("state"),
    });
    expect(missing.answer.headers.get("Location")).toBe("/auth?discord=expired");

    // Discord's answer opened in another browser (without the flow's cookie).
    const elsewhere = jarOf();
    const leaving = await post(elsewhere, "/auth/discord", {});
    const authorize = new URL(leaving.headers.get("Location")!);
    authorize.searchParams.set("login", "belle");
    const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("Location")!);
    const otherBrowser = await get(jarOf(), back.pathname + back.search);
    expect(otherBrowser.headers.get("Location")).toBe("/auth?discord=expired");

    // The same answer twice: the first signs in, the second is refused.
    const browser = jarOf();
    const first = await viaDiscord(browser, signInStart(), "belle");
    expect(first.answer.headers.get("Location")).toBe("/");
    const replay = await get(jarOf(), first.back.pathname + first.back.search);
    expect(replay.headers.get("Location")).toBe("/auth?discord=expired");

    for (const query of [
      "",
      "?code=abc",
      "?state=abc",
      `?state=${"x".repeat(5000)}&code=y`,
      "?error=server_error&state=zzz",
    ]) {
      const answer = await get(jarOf(), `/auth/discord/callback${query}`);
      expect(answer.status, query.slice(0, 40)).toBe(302);
      expect(answer.headers.get("Location"), query.slice(0, 40)).toBe("/auth?discord=expired");
    }
    // Signed in, the notice goes to the profile's page.
    const signedIn = await get(jarOf(member.cookie), "/auth/discord/callback?state=abc&code=def");
    expect(signedIn.headers.get("Location")).toBe("/profile/sign-in-methods?discord=expired");
  });

  it("says so when the member cancels at Discord", async () => {
    const browser = jarOf();
    const leaving = await post(browser, "/auth/discord", {});
    const authorize = new URL(leaving.headers.get("Location")!);
    // The authorize page, as a browser shows it, with its Cancel button.
    const consent = await fetch(authorize);
    expect(await consent.text()).toContain("Cancel");
    authorize.searchParams.set("deny", "1");
    const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("Location")!);
    const answer = await get(browser, back.pathname + back.search);
    expect(answer.headers.get("Location")).toBe("/auth?discord=cancelled");
    expect(await pageText(await get(browser, "/auth?discord=cancelled"))).toContain(DISCORD_NOTICES.cancelled);
  });

  it("refuses to unlink Discord when it is the member's only way to sign in", async () => {
    const member = await signedInMember("player");
    const jar = jarOf(member.cookie);
    await viaDiscord(jar, linkStart, "carol");
    // A member without a password: Discord is their one account.
    await db()
      .delete(accounts)
      .where(and(eq(accounts.userId, member.id), eq(accounts.providerId, "credential")));
    const page = await pageText(await get(jar, "/profile/sign-in-methods"));
    expect(page).toContain("Not set: you cannot sign in with a password yet.");
    expect(page).toContain('href="/forgot-password"');

    const refused = await post(jar, "/profile/sign-in-methods", { intent: "unlink" });
    expect(refused.status).toBe(409);
    const text = await pageText(refused);
    expect(text).toContain(DISCORD_UNLINK_MESSAGES.onlyWay);
    expect(text).toContain("@carol");
    expect(await discordAccountsOf(member.id)).toHaveLength(1);
  });

  it("unlinks Discord, which then no longer signs in", async () => {
    const member = await signedInMember("player");
    const jar = jarOf(member.cookie);
    await viaDiscord(jar, linkStart, "jesse");
    const unlinked = await post(jar, "/profile/sign-in-methods", { intent: "unlink" });
    expect(unlinked.status).toBe(200);
    const text = await pageText(unlinked);
    expect(text).toContain(DISCORD_UNLINK_MESSAGES.unlinked);
    expect(text).toContain("Not linked.");
    expect(await discordAccountsOf(member.id)).toEqual([]);
    // Nothing left to unlink.
    const again = await post(jar, "/profile/sign-in-methods", { intent: "unlink" });
    expect(again.status).toBe(404);
    expect(await pageText(again)).toContain(DISCORD_UNLINK_MESSAGES.notLinked);

    const { answer } = await viaDiscord(jarOf(), signInStart(), "jesse");
    expect(answer.headers.get("Location")).toBe("/auth?discord=not-linked");
  });

  it("asks a session signed in over a day ago to sign in again before unlinking", async () => {
    const member = await signedInMember("player");
    const jar = jarOf(member.cookie);
    await viaDiscord(jar, linkStart, "morgan");
    await db()
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000) })
      .where(eq(sessions.userId, member.id));
    const refused = await post(jar, "/profile/sign-in-methods", { intent: "unlink" });
    expect(refused.status).toBe(403);
    expect(await pageText(refused)).toContain(DISCORD_UNLINK_MESSAGES.signInAgain);
    expect(await discordAccountsOf(member.id)).toHaveLength(1);
  });

  it("logs no code, state or token of Discord's", async () => {
    const lines: string[] = [];
    const stream = pino.symbols.streamSym as unknown as symbol;
    const target = logger as unknown as Record<symbol, unknown>;
    const [savedStream, savedLevel] = [target[stream], logger.level];
    logger.level = "debug";
    target[stream] = { write: (line: string) => lines.push(line) };
    const states: string[] = [];
    try {
      const member = await signedInMember("player");
      const linking = await viaDiscord(jarOf(member.cookie), linkStart, "silas");
      states.push(linking.back.searchParams.get("state")!);
      const signingIn = await viaDiscord(jarOf(), signInStart(), "silas");
      states.push(signingIn.back.searchParams.get("state")!);
      await get(jarOf(), signingIn.back.pathname + signingIn.back.search);
      const stranger = await viaDiscord(jarOf(), signInStart(), "nobody-knows");
      states.push(stranger.back.searchParams.get("state")!);
      await get(jarOf(member.cookie), "/profile/sign-in-methods");
    } finally {
      target[stream] = savedStream;
      logger.level = savedLevel;
    }
    const log = lines.join("\n");
    expect(log).toContain("a Discord sign-in did not go through");
    expect(mock.secrets().length).toBeGreaterThanOrEqual(9);
    for (const secret of [...mock.secrets(), ...states]) expect(log).not.toContain(secret);
  });

  it("limits leaving for Discord and coming back, per client address", async () => {
    await db().delete(rateLimits);
    const browser = jarOf();
    for (let i = 0; i < DISCORD_LIMITS.start.max; i++) {
      const leaving = await post(browser, "/auth/discord", { redirectTo: "/events" });
      expect(new URL(leaving.headers.get("Location")!).origin).toBe(mock.url);
    }
    const refused = await post(browser, "/auth/discord", { redirectTo: "/events" });
    expect(refused.headers.get("Location")).toBe("/auth?discord=too-many&redirectTo=%2Fevents");
    expect(await pageText(await get(browser, "/auth?discord=too-many"))).toContain(DISCORD_NOTICES["too-many"]);
    // Keyed on the address the site sees: a forwarded address the client made up (no TRUST_PROXY) changes nothing.
    const disguised = await post(
      jarOf(),
      "/auth/discord",
      { redirectTo: "/events" },
      { "X-Forwarded-For": "203.0.113.77" },
    );
    expect(disguised.headers.get("Location")).toBe("/auth?discord=too-many&redirectTo=%2Fevents");
    // Linking counts against the same limit.
    const member = await signedInMember("player");
    const link = await post(jarOf(member.cookie), "/profile/sign-in-methods", { intent: "link" });
    expect(link.status).toBe(429);
    expect(await pageText(link)).toContain(DISCORD_NOTICES["too-many"]);

    for (let i = 0; i < DISCORD_LIMITS.callback.max; i++) {
      expect((await get(browser, "/auth/discord/callback?state=abc&code=def")).headers.get("Location")).toBe(
        "/auth?discord=expired",
      );
    }
    expect((await get(browser, "/auth/discord/callback?state=abc&code=def")).headers.get("Location")).toBe(
      "/auth?discord=too-many",
    );
  });
});
