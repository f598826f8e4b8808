import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { passkeys, verifications } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { sessionCookie, signedInMember } from "../../helpers/members";

/**
 * The passkey resource routes' refusals over real HTTP, and the profile page's plain forms.
 * The browser's side (a real WebAuthn ceremony, a replayed answer) is e2e/passkeys.spec.ts.
 */
const db = withTestDatabase();
const app = withAppServer();

type Options = {
  challenge: string;
  rpId?: string;
  rp?: { id: string; name: string };
  user?: { name: string };
  allowCredentials?: unknown[];
};

function post(path: string, init: { cookie?: string; body?: string; type?: string; method?: string } = {}) {
  return fetch(app().url + path, {
    method: init.method ?? "POST",
    headers: {
      Origin: app().url,
      ...(init.type ? { "Content-Type": init.type } : {}),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body,
    redirect: "manual",
  });
}
const postJson = (path: string, body: unknown, cookie?: string) =>
  post(path, { body: JSON.stringify(body), type: "application/json", cookie });

/** The cookies a response sets, as the Cookie header that sends them back (with any already held). */
function withCookies(response: Response, held = ""): string {
  const set = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  return [held, ...set].filter(Boolean).join("; ");
}

const b64 = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** An answer shaped like the browser's, for a credential the site has never seen. */
function assertion(id = b64(crypto.randomBytes(32)), challenge = b64(crypto.randomBytes(32))) {
  return {
    id,
    rawId: id,
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64(JSON.stringify({ type: "webauthn.get", challenge, origin: "http://localhost:3000" })),
      authenticatorData: b64(crypto.randomBytes(37)),
      signature: b64(crypto.randomBytes(70)),
    },
  };
}

function registration() {
  const id = b64(crypto.randomBytes(32));
  return {
    id,
    rawId: id,
    type: "public-key",
    clientExtensionResults: {},
    response: { clientDataJSON: b64("{}"), attestationObject: b64(crypto.randomBytes(100)), transports: ["internal"] },
  };
}

/** A passkey row as the library would save it, for a member. */
async function savedPasskey(userId: string, name: string, aaguid: string | null = null) {
  const [row] = await db()
    .insert(passkeys)
    .values({
      id: crypto.randomUUID(),
      userId,
      name,
      publicKey: b64(crypto.randomBytes(77)),
      credentialID: b64(crypto.randomBytes(32)),
      counter: 0,
      deviceType: "multiDevice",
      backedUp: true,
      transports: "internal,hybrid",
      aaguid,
    })
    .returning();
  return row!;
}

describe("passkey resource routes", () => {
  it("refuse a signed-out visitor on the profile's routes, and the page sends them to sign in", async () => {
    expect((await post("/profile/passkeys/options")).status).toBe(401);
    expect((await postJson("/profile/passkeys/verify", { response: registration(), name: "Laptop" })).status).toBe(401);
    const page = await fetch(`${app().url}/profile/passkeys`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/auth?redirectTo=%2Fprofile%2Fpasskeys");
  });

  it("answer POST alone", async () => {
    const member = await signedInMember("player");
    for (const path of [
      "/auth/passkey/options",
      "/auth/passkey/verify",
      "/profile/passkeys/options",
      "/profile/passkeys/verify",
    ]) {
      const get = await fetch(app().url + path, { headers: { Cookie: member.cookie }, redirect: "manual" });
      expect(get.status, path).toBe(405);
      expect(get.headers.get("Allow"), path).toBe("POST");
      const put = await post(path, { method: "PUT", cookie: member.cookie, body: "{}", type: "application/json" });
      expect(put.status, path).toBe(405);
    }
  });

  it("give sign-in options with a challenge for any passkey of this site (discoverable), in a cookie-bound, uncached answer", async () => {
    const before = (await db().select().from(verifications)).length;
    const response = await post("/auth/passkey/options");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(response.headers.getSetCookie().length).toBeGreaterThan(0);
    const { options } = (await response.json()) as { options: Options };
    expect(options.challenge).toMatch(/^[\w-]{20,}$/);
    expect(options.rpId).toBe("localhost");
    expect(options.allowCredentials ?? []).toEqual([]);
    expect((await db().select().from(verifications)).length).toBe(before + 1);
  });

  it("give a member registration options naming the site and the member", async () => {
    const member = await signedInMember("player");
    const response = await post("/profile/passkeys/options", { cookie: member.cookie });
    expect(response.status).toBe(200);
    const { options } = (await response.json()) as { options: Options };
    expect(options.rp).toEqual({ id: "localhost", name: "Hopewell" });
    expect(options.user?.name).toBe(member.email);
  });

  it("refuse a body that is not the browser's answer", async () => {
    const member = await signedInMember("player");
    const bodies: [string, string | undefined][] = [
      ["text/plain", "response=x"],
      ["application/json", "{not json"],
      ["application/json", "{}"],
      ["application/json", JSON.stringify({ response: { id: "x" } })],
      ["application/json", JSON.stringify({ response: { ...assertion(), type: "password" } })],
      ["application/x-www-form-urlencoded", "intent=walk"],
    ];
    for (const [type, body] of bodies) {
      const signIn = await post("/auth/passkey/verify", { type, body });
      expect(signIn.status, `${type} ${body}`).toBe(400);
      expect(((await signIn.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.unreadable);
      const add = await post("/profile/passkeys/verify", { type, body, cookie: member.cookie });
      expect(add.status, `${type} ${body}`).toBe(400);
      expect(((await add.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.unreadable);
    }
    // The name is checked like any form field.
    const unnamed = await postJson("/profile/passkeys/verify", { response: registration(), name: "  " }, member.cookie);
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { message: string }).message).toBe("Please give this passkey a name");
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, member.id))).toEqual([]);
  });

  it("refuse an answer with no challenge, an expired one, or one used up, and a passkey not registered here", async () => {
    // No challenge cookie at all: nothing was asked.
    const noChallenge = await postJson("/auth/passkey/verify", { response: assertion() });
    expect(noChallenge.status).toBe(400);
    expect(((await noChallenge.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.challengeExpired);

    // A challenge past its five minutes.
    const expired = withCookies(await post("/auth/passkey/options"));
    await db()
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    const late = await postJson("/auth/passkey/verify", { response: assertion() }, expired);
    expect(late.status).toBe(400);
    expect(((await late.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.challengeExpired);

    // A live challenge, answered by a credential the site does not know...
    const fresh = withCookies(await post("/auth/passkey/options"));
    const unknown = await postJson("/auth/passkey/verify", { response: assertion() }, fresh);
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.notRegistered);
    // ...is used up by that one answer: the same request again finds no challenge.
    const replayed = await postJson("/auth/passkey/verify", { response: assertion() }, fresh);
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.challengeExpired);

    // A registration answer with a challenge made for another member's session.
    const [owner, other] = [await signedInMember("player"), await signedInMember("player")];
    const ownersChallenge = withCookies(await post("/profile/passkeys/options", { cookie: owner.cookie }));
    const mixed = await postJson(
      "/profile/passkeys/verify",
      { response: registration(), name: "Stolen" },
      withCookies(new Response(), `${other.cookie}; ${ownersChallenge}`),
    );
    expect(mixed.status).toBe(403);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, other.id))).toEqual([]);
    // A forged registration answer to the member's own live challenge is not saved.
    const forged = await postJson(
      "/profile/passkeys/verify",
      { response: registration(), name: "Forged" },
      withCookies(await post("/profile/passkeys/options", { cookie: owner.cookie }), owner.cookie),
    );
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.registrationFailed);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, owner.id))).toEqual([]);
  });

  it("limit the challenges one client address may ask for", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await post("/auth/passkey/options");
      if (last.status === 429) break;
      await last.body?.cancel();
    }
    expect(last!.status).toBe(429);
    expect(((await last!.json()) as { message: string }).message).toBe(PASSKEY_MESSAGES.tooManyRequests);
  });
});

/** A player signed in with a passkey (aal2): a session proven by less is asked for the passkey before these pages (tests/http/second-factor-matrix.test.ts). */
async function signedInWithPasskey() {
  const member = await signedInMember("player");
  return { ...member, cookie: await sessionCookie(member, { assuranceLevel: "aal2" }) };
}

describe("the profile's Passkeys page", () => {
  it("lists the member's passkeys with name, known authenticator and date, and nothing secret", async () => {
    const member = await signedInWithPasskey();
    const hello = await savedPasskey(member.id, "Office PC", "08987058-cadc-4b81-b6e1-30de50dcbe96");
    const other = await savedPasskey((await signedInMember("player")).id, "Someone else's key");
    const response = await fetch(`${app().url}/profile/passkeys`, { headers: { Cookie: member.cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Office PC");
    expect(html).toContain("Windows Hello");
    expect(html).toContain("Synced to your other devices");
    expect(html).not.toContain(other.name);
    expect(html).not.toContain(hello.publicKey);
    expect(html).not.toContain(hello.credentialID);
    // Without JavaScript the page says passkeys need it.
    expect(html).toContain("<noscript>");
    expect(html).toContain("Passkeys need JavaScript");
  });

  it("renames and removes the member's own passkeys with plain forms, never another member's", async () => {
    const member = await signedInWithPasskey();
    const stranger = await signedInMember("player");
    const mine = await savedPasskey(member.id, "Old name");
    const theirs = await savedPasskey(stranger.id, "Their key");

    const renamed = await postForm(
      app().url,
      "/profile/passkeys",
      { intent: "rename", id: mine.id, name: "Phone" },
      member.cookie,
    );
    expect(renamed.status).toBe(200);
    expect(await renamed.text()).toContain(PASSKEY_MESSAGES.renamed);
    const blank = await postForm(
      app().url,
      "/profile/passkeys",
      { intent: "rename", id: mine.id, name: " " },
      member.cookie,
    );
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Please give this passkey a name");
    expect((await db().select().from(passkeys).where(eq(passkeys.id, mine.id)))[0]!.name).toBe("Phone");

    for (const intent of ["rename", "remove"]) {
      const refused = await postForm(
        app().url,
        "/profile/passkeys",
        { intent, id: theirs.id, name: "Mine now" },
        member.cookie,
      );
      expect(refused.status, intent).toBe(404);
      expect(await refused.text()).toContain(PASSKEY_MESSAGES.gone);
    }
    expect((await db().select().from(passkeys).where(eq(passkeys.id, theirs.id)))[0]!.name).toBe("Their key");

    // Adding posts here only when the page's JavaScript did not run.
    const add = await postForm(app().url, "/profile/passkeys", { intent: "add", name: "Laptop" }, member.cookie);
    expect(add.status).toBe(400);
    expect(await add.text()).toContain(PASSKEY_MESSAGES.needsJavaScript);

    const removed = await postForm(app().url, "/profile/passkeys", { intent: "remove", id: mine.id }, member.cookie);
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain(PASSKEY_MESSAGES.removed);
    expect(await db().select().from(passkeys).where(eq(passkeys.id, mine.id))).toEqual([]);
    const again = await postForm(app().url, "/profile/passkeys", { intent: "remove", id: mine.id }, member.cookie);
    expect(again.status).toBe(404);
  });

  it("answers /auth's passkey button without JavaScript with what it needs", async () => {
    const response = await postForm(app().url, "/auth", { intent: "passkey" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(PASSKEY_MESSAGES.signInNeedsJavaScript.replace("'", "&#x27;"));
  });
});
