import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { PASSKEY_MESSAGES } from "../app/features/passkeys/passkey-messages";
import { postgresAnswers, withDatabaseName } from "../tests/helpers/database-urls";
import { expectAccessible } from "./axe";
import { signIn } from "./helpers";
import { startOwnServer, type OwnServer } from "./own-server";

/**
 * Passkeys for real, in Chromium with its virtual authenticator (the DevTools protocol's
 * WebAuthn domain): enrol from the profile, rename, sign in with it (an aal2 session), the
 * library's refusal of a replayed answer, removal, and the refusal afterwards.
 *
 * Why a server of its own (the run's two servers cannot serve it): a passkey's relying party must
 * be a host name, and the browser's origin must be APP_URL's, while both of the run's servers
 * answer on 127.0.0.1; and the test reads the sessions and passkeys from the database while the
 * server runs, which the embedded database (the server's alone) does not allow. So it starts the
 * production build on http://localhost, on a PostgreSQL database of its own (e2e/own-server.ts).
 * Without a PostgreSQL server it is skipped, saying so and naming TEST_DATABASE_URL.
 */
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const MEMBER = { email: "passkey-member@e2e.test", password: "Lantern#1877" };

/** Sign-ins hash a password or check a signature on a shared 2-core machine: each step may take a while. */
const SLOW = { timeout: 30_000 };

test.describe("passkeys", () => {
  test.describe.configure({ timeout: 240_000, mode: "serial" });
  test.skip(({ isMobile }) => isMobile, "runs once: it starts its own server (its screenshots cover a phone's width)");

  let server: OwnServer | undefined;
  let url = "";
  let databaseName = "";
  let db: pg.Client;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // .ci/run runs a PostgreSQL pass, so the server is there; elsewhere the test says what it needs.
    test.skip(
      !(await postgresAnswers(PG_URL)),
      `needs a PostgreSQL server at ${PG_URL} (set TEST_DATABASE_URL to use another)`,
    );
    databaseName = `hopewell_e2e_passkeys_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const databaseUrl = withDatabaseName(PG_URL, databaseName);
    server = await startOwnServer({
      name: "passkeys",
      host: "localhost",
      env: { DATABASE_URL: databaseUrl },
      members: [{ ...MEMBER, first: "Nell", last: "Keys", role: "player" }],
    });
    url = server.site;
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  test.afterAll(async () => {
    await db?.end();
    await server?.stop();
    if (!databaseName) return;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });

  const memberId = async () =>
    (await db.query<{ id: string }>("select id from profiles where email = $1", [MEMBER.email])).rows[0]!.id;
  const passkeyNames = async () =>
    (await db.query<{ name: string }>("select name from passkeys where user_id = $1", [await memberId()])).rows.map(
      (r) => r.name,
    );

  async function signOut(page: Page) {
    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await expect(page).toHaveURL(`${url}/`, SLOW);
  }

  test("enrol, rename, sign in with it (aal2), a replayed answer refused, remove, then refused", async ({
    page,
    browser,
  }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await page.goto(`${url}/auth`);
    await signIn(page, MEMBER.email, MEMBER.password);
    await expect(page).toHaveURL(`${url}/`, SLOW);

    // Enrol from the profile, naming it.
    await page.goto(`${url}/profile`);
    await page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "Passkeys" }).click();
    await expect(page).toHaveURL(`${url}/profile/passkeys`, SLOW);
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible(SLOW);
    await page.getByLabel("Name for this passkey").fill("Work laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(PASSKEY_MESSAGES.added, SLOW);
    const rows = page.getByTestId("passkey");
    await expect(rows).toHaveCount(1, SLOW);
    await expect(rows.first().getByRole("heading", { level: 3 })).toHaveText("Work laptop", SLOW);
    expect(await passkeyNames()).toEqual(["Work laptop"]);

    // Rename it (a plain form).
    await page.getByLabel("New name for Work laptop").fill("Desk key");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("status")).toHaveText(PASSKEY_MESSAGES.renamed, SLOW);
    await expect(rows.first().getByRole("heading", { level: 3 })).toHaveText("Desk key", SLOW);
    expect(await passkeyNames()).toEqual(["Desk key"]);
    await expectAccessible(page);
    await page.screenshot({ path: "/tmp/passkeys-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await page.screenshot({ path: "/tmp/passkeys-390.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Sign out, then in with the passkey alone: back to the page asked for, as an aal2 session.
    await signOut(page);
    await page.goto(`${url}/auth?redirectTo=${encodeURIComponent("/profile/passkeys")}`);
    await page.screenshot({ path: "/tmp/passkey-signin-1280.png", fullPage: true });
    const answer = page.waitForRequest((request) => request.url().endsWith("/auth/passkey/verify"));
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).toHaveURL(`${url}/profile/passkeys`, SLOW);
    await expect(page.getByRole("heading", { level: 2, name: "Passkeys" })).toBeVisible(SLOW);
    await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeAttached(SLOW);
    const sessions = await db.query<{ assurance_level: string }>(
      "select assurance_level from sessions where user_id = $1 order by created_at desc",
      [await memberId()],
    );
    expect(sessions.rows[0]!.assurance_level).toBe("aal2");
    expect(sessions.rows.filter((s) => s.assurance_level === "aal2")).toHaveLength(1);

    // The same answer again: its challenge is used up (the library deletes it on success)...
    const replayed = (await answer).postDataJSON() as Record<string, unknown>;
    const again = await page.request.post(`${url}/auth/passkey/verify`, { data: replayed, headers: { Origin: url } });
    expect(again.status()).toBe(400);
    expect((await again.json()).message).toBe(PASSKEY_MESSAGES.challengeExpired);
    // ...and against a fresh challenge its signature does not match.
    expect((await page.request.post(`${url}/auth/passkey/options`, { headers: { Origin: url } })).status()).toBe(200);
    const replayedFresh = await page.request.post(`${url}/auth/passkey/verify`, {
      data: replayed,
      headers: { Origin: url },
    });
    expect(replayedFresh.status()).toBe(401);
    expect((await replayedFresh.json()).message).toBe(PASSKEY_MESSAGES.notVerified);
    const after = await db.query("select 1 from sessions where user_id = $1 and assurance_level = 'aal2'", [
      await memberId(),
    ]);
    expect(after.rowCount).toBe(1);

    // Remove it: the authenticator still holds it, but the site no longer accepts it.
    await page.goto(`${url}/profile/passkeys`);
    await page.getByRole("button", { name: "Remove Desk key" }).click();
    await expect(page.getByRole("status")).toHaveText(PASSKEY_MESSAGES.removed, SLOW);
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible(SLOW);
    expect(await passkeyNames()).toEqual([]);
    await signOut(page);
    await page.goto(`${url}/auth`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toHaveText(PASSKEY_MESSAGES.notRegistered, SLOW);
    await expect(page).toHaveURL(`${url}/auth`, SLOW);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "/tmp/passkey-signin-390.png", fullPage: true });

    // A device holding no passkey for the site: the browser's request ends unanswered, as when the member cancels it.
    await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toHaveText(PASSKEY_MESSAGES.cancelled, SLOW);

    // Without JavaScript the button says what it needs, and password sign-in still works.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const plainPage = await plain.newPage();
    await plainPage.goto(`${url}/auth`);
    await plainPage.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(plainPage.getByRole("alert")).toHaveText(PASSKEY_MESSAGES.signInNeedsJavaScript, SLOW);
    await plain.close();
  });

  test("a suspended member's passkey signs nobody in, and works again once the account is restored", async ({
    page,
  }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`${url}/auth`);
    await signIn(page, MEMBER.email, MEMBER.password);
    await expect(page).toHaveURL(`${url}/`, SLOW);
    await page.goto(`${url}/profile/passkeys`);
    await page.getByLabel("Name for this passkey").fill("Pocket key");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(PASSKEY_MESSAGES.added, SLOW);

    // Suspended as the managers' page does it (member-admin.server.ts): the flag, and every session ended.
    const id = await memberId();
    await db.query("update profiles set banned = true, ban_reason = 'e2e' where id = $1", [id]);
    await db.query("delete from sessions where user_id = $1", [id]);
    // Written from outside the server, the end of the session reaches its kept copy of who is signed
    // in with the database's announcement, a moment later: until then /auth still sends the member home.
    await expect(async () => {
      await page.goto(`${url}/auth`);
      await expect(page).toHaveURL(`${url}/auth`, { timeout: 1_000 });
    }).toPass(SLOW);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toHaveText("This account is suspended. Contact the club's managers.", SLOW);
    await expect(page).toHaveURL(`${url}/auth`, SLOW);
    expect((await db.query("select 1 from sessions where user_id = $1", [id])).rowCount).toBe(0);

    await db.query("update profiles set banned = false, ban_reason = null where id = $1", [id]);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).toHaveURL(`${url}/`, SLOW);
    expect(
      (await db.query("select 1 from sessions where user_id = $1 and assurance_level = 'aal2'", [id])).rowCount,
    ).toBe(1);
  });
});
