import { z } from "zod";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { PASSKEY_MESSAGES } from "./passkey-messages";
import { PASSKEY_ID, passkeyName } from "./passkeys.form";
import { safeRedirectTarget } from "~/web/redirect-target";
import { authRefusal, getAuth, type AuthRefusal } from "~/identity/auth.server";
import { logger } from "~/platform/logger.server";
import { forgiveAttempt, hit, signInPerAddress, type Limit } from "~/platform/rate-limit.server";
import { ACCOUNT_SUSPENDED_CODE, ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";
import { markSessionProven } from "~/features/two-factor/two-factor.server";

/**
 * Passkeys (WebAuthn), through the auth library's passkey plugin and its `auth.api` calls
 * alone. The library's HTTP handler is not mounted: our resource routes ask it for the
 * options the browser's WebAuthn call needs and hand it the browser's answer, passing the
 * request's headers in (the session cookie, the challenge cookie, the client address) and
 * its Set-Cookie headers out (the challenge cookie, and on sign-in the session's).
 */

/** Each challenge is a row the library keeps for five minutes: a client address may ask for this many. */
const OPTIONS_PER_ADDRESS: Limit = { max: 30, windowMs: 15 * 60_000 };

/** What a resource route answers: a JSON body, its status and the cookies to set. */
export type PasskeyAnswer = { status: number; body: Record<string, unknown>; setCookies: string[] };

const refused = (status: number, message: string): PasskeyAnswer => ({ status, body: { message }, setCookies: [] });

/** The answer as a response: JSON, never cached (it carries a one-time challenge), with its cookies. */
export function passkeyResponse(answer: PasskeyAnswer): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of answer.setCookies) headers.append("Set-Cookie", cookie);
  return Response.json(answer.body, { status: answer.status, headers });
}

/** The library's refusals, by error code: its codes are part of its API, its wording is not. */
function refusalAnswer(refusal: AuthRefusal, fallback: string): PasskeyAnswer {
  switch (refusal.code) {
    case "CHALLENGE_NOT_FOUND":
      return refused(400, PASSKEY_MESSAGES.challengeExpired);
    case "PASSKEY_NOT_FOUND":
      return refused(401, PASSKEY_MESSAGES.notRegistered);
    // A signature over another challenge, or a counter that went backwards: a replayed or cloned answer.
    case "AUTHENTICATION_FAILED":
      return refused(401, PASSKEY_MESSAGES.notVerified);
    case "SESSION_NOT_FRESH":
      return refused(403, PASSKEY_MESSAGES.notFresh);
    case ACCOUNT_SUSPENDED_CODE:
      return refused(403, ACCOUNT_SUSPENDED_MESSAGE);
    // The challenge was made for another member's session.
    case "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY":
      return refused(403, PASSKEY_MESSAGES.challengeExpired);
    default:
      return refused(refusal.status === 401 ? 401 : 400, fallback);
  }
}

/** Runs one library call; its refusals become answers, anything else (a bug, the database) is thrown. */
async function asking(fallback: string, call: () => Promise<PasskeyAnswer>): Promise<PasskeyAnswer> {
  try {
    return await call();
  } catch (error) {
    const refusal = await authRefusal(error);
    if (!refusal) throw error;
    logger.info({ code: refusal.code }, "passkey request refused");
    return refusalAnswer(refusal, fallback);
  }
}

/** A JSON body, or undefined for anything else (another content type, broken JSON). */
async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") return undefined;
  try {
    return await request.json();
  } catch (error) {
    if (request.signal.aborted) throw error;
    return undefined;
  }
}

// The browser's answers, as @simplewebauthn/browser serialises them (base64url fields).
const base64url = z
  .string()
  .min(1)
  .max(16_000)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/);
const credential = {
  id: base64url.max(1_400),
  rawId: base64url.max(1_400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};
const RegistrationResponse = z.looseObject({
  ...credential,
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(40)).max(10).default([]),
  }),
});
const AuthenticationResponse = z.looseObject({
  ...credential,
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});
const RegistrationBody = z.object({ response: RegistrationResponse, name: passkeyName });
const SignInBody = z.object({ response: AuthenticationResponse, redirectTo: z.string().max(2_000).optional() });

/** The options for adding a passkey to the signed-in member's account, with the challenge cookie. */
export async function registrationOptions(request: Request, clientAddress: string): Promise<PasskeyAnswer> {
  const limit = await hit(`passkey:options:${clientAddress}`, OPTIONS_PER_ADDRESS);
  if (!limit.allowed) return refused(429, PASSKEY_MESSAGES.tooManyRequests);
  const auth = await getAuth();
  return asking(PASSKEY_MESSAGES.registrationFailed, async () => {
    const result = await auth.api.generatePasskeyRegistrationOptions({ headers: request.headers, returnHeaders: true });
    return { status: 200, body: { options: result.response }, setCookies: result.headers.getSetCookie() };
  });
}

/**
 * Checks the browser's new credential against the challenge and saves it, with the member's name
 * for it. The session that made it has now proven the passkey too, as enrolling an authenticator
 * app proves the app: it becomes aal2 (a session proven by less can only get here while the
 * member has no factor, app/web/two-factor-gate.server.ts).
 */
export async function verifyRegistration(request: Request, userId: string): Promise<PasskeyAnswer> {
  const parsed = RegistrationBody.safeParse(await readJson(request));
  if (!parsed.success) {
    // The name's own message only when the browser's answer itself was readable.
    const onlyName = parsed.error.issues.every((issue) => issue.path[0] === "name");
    return refused(400, onlyName ? parsed.error.issues[0]!.message : PASSKEY_MESSAGES.unreadable);
  }
  const auth = await getAuth();
  return asking(PASSKEY_MESSAGES.registrationFailed, async () => {
    const { response, name } = parsed.data;
    const result = await auth.api.verifyPasskeyRegistration({
      body: { response, name },
      headers: request.headers,
      returnHeaders: true,
    });
    await markSessionProven(request, userId);
    return {
      status: 200,
      body: { message: PASSKEY_MESSAGES.added, id: result.response?.id },
      setCookies: result.headers.getSetCookie(),
    };
  });
}

/**
 * The options for signing in with a passkey: no list of credentials, so the browser offers
 * the passkeys it holds for this site (discoverable credentials) and no email is asked for.
 */
export async function signInOptions(request: Request, clientAddress: string): Promise<PasskeyAnswer> {
  const limit = await hit(`passkey:options:${clientAddress}`, OPTIONS_PER_ADDRESS);
  if (!limit.allowed) return refused(429, PASSKEY_MESSAGES.tooManyRequests);
  const auth = await getAuth();
  return asking(PASSKEY_MESSAGES.signInFailed, async () => {
    const result = await auth.api.generatePasskeyAuthenticationOptions({
      headers: request.headers,
      returnHeaders: true,
    });
    return { status: 200, body: { options: result.response }, setCookies: result.headers.getSetCookie() };
  });
}

/**
 * Signs in with the browser's answer: the library checks it against the challenge and the
 * passkey's counter and makes an aal2 session (auth.server.ts). Counted against the same
 * per-address limit as password sign-ins.
 */
export async function signInWithPasskey(request: Request, clientAddress: string): Promise<PasskeyAnswer> {
  const limit = await hit(`signin:address:${clientAddress}`, signInPerAddress());
  if (!limit.allowed) return refused(429, SITE_MESSAGES.tooManySignIns);
  const parsed = SignInBody.safeParse(await readJson(request));
  if (!parsed.success) return refused(400, PASSKEY_MESSAGES.unreadable);
  const auth = await getAuth();
  return asking(PASSKEY_MESSAGES.signInFailed, async () => {
    const result = await auth.api.verifyPasskeyAuthentication({
      body: { response: parsed.data.response },
      headers: request.headers,
      returnHeaders: true,
    });
    // Only failed answers use up the address's sign-in limit.
    await forgiveAttempt(`signin:address:${clientAddress}`);
    return {
      status: 200,
      body: { redirectTo: safeRedirectTarget(parsed.data.redirectTo) },
      setCookies: result.headers.getSetCookie(),
    };
  });
}

/** One of the member's passkeys as the page shows it: never its public key or credential id. */
export type PasskeyView = {
  id: string;
  name: string;
  authenticator: string | null;
  addedAt: string | null;
  synced: boolean;
};

type ListedPasskey = {
  id: string;
  name?: string | null;
  aaguid?: string | null;
  createdAt?: Date | string | null;
  deviceType?: string;
  backedUp?: boolean;
};

function view(
  passkey: ListedPasskey,
  authenticatorName: (aaguid: string | null | undefined) => string | undefined,
): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name?.trim() || "Unnamed passkey",
    // The library's short list of common authenticators (none for an unknown or withheld AAGUID).
    authenticator: authenticatorName(passkey.aaguid) ?? null,
    addedAt: passkey.createdAt ? new Date(passkey.createdAt).toISOString() : null,
    synced: passkey.deviceType === "multiDevice" || passkey.backedUp === true,
  };
}

async function listed(request: Request): Promise<ListedPasskey[]> {
  const auth = await getAuth();
  return (await auth.api.listPasskeys({ headers: request.headers })) as ListedPasskey[];
}

/** The signed-in member's passkeys, oldest first. */
export async function listPasskeys(request: Request): Promise<PasskeyView[]> {
  const [{ getAuthenticatorName }, passkeys] = await Promise.all([import("@better-auth/passkey"), listed(request)]);
  return passkeys
    .map((passkey) => view(passkey, getAuthenticatorName))
    .sort((a, b) => (a.addedAt ?? "").localeCompare(b.addedAt ?? ""));
}

/**
 * True when `id` names one of the signed-in member's own passkeys: looked up in their own
 * list, so an id of anyone else's passkey finds nothing, whatever the library checks itself.
 */
async function ownsPasskey(request: Request, id: string): Promise<boolean> {
  if (!PASSKEY_ID.test(id)) return false;
  return (await listed(request)).some((passkey) => passkey.id === id);
}

/** Renames one of the member's passkeys; false when it is not theirs (or no longer exists). */
export async function renamePasskey(request: Request, id: string, name: string): Promise<boolean> {
  if (!(await ownsPasskey(request, id))) return false;
  const auth = await getAuth();
  await auth.api.updatePasskey({ body: { id, name }, headers: request.headers });
  return true;
}

/** Removes one of the member's passkeys: it no longer signs anyone in. False when it is not theirs. */
export async function removePasskey(request: Request, id: string): Promise<boolean> {
  if (!(await ownsPasskey(request, id))) return false;
  const auth = await getAuth();
  await auth.api.deletePasskey({ body: { id }, headers: request.headers });
  return true;
}

/** Every passkey resource route answers POST alone. */
export function methodNotAllowed(): Response {
  return Response.json(
    { message: "Use POST." },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } },
  );
}

/**
 * A passkey resource route's action: POST only, the answer as JSON; a failure the member
 * cannot fix (the database, a bug) is logged once as "`what` failed" and answered 500.
 */
export async function passkeyRoute(
  request: Request,
  what: string,
  failure: string,
  work: () => Promise<PasskeyAnswer>,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    return passkeyResponse(await work());
  } catch (error) {
    if (error instanceof Response) throw error;
    logger.error({ err: error }, `${what} failed`);
    return passkeyResponse(refused(500, failure));
  }
}
