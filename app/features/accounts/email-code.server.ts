import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, sql } from "drizzle-orm";
import { EMAIL_CODE_MESSAGES, waitText } from "./email-code.form";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { authRefusal, CLIENT_ADDRESS_HEADER, getAuth } from "~/identity/auth.server";
import { codeRequestContext } from "~/identity/auth-email.server";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { accounts, profiles, rateLimits } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { forgiveAttempt, hit, signInPerAddress, type Limit } from "~/platform/rate-limit.server";
import { madeInThisBrowser } from "./sign-up-browser.server";
import { ACCOUNT_SUSPENDED_CODE, ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";

/**
 * Signing in with a one-time code sent by email, through the auth library's email-otp plugin
 * (configured in auth-email.server.ts). Asking for a code is limited per address (one every
 * EMAIL_CODE_RESEND_S, and a few an hour) and per client; each refusal says how long to wait.
 * Whether an address has an account is never told: the same answer, after the same time.
 */

/** Codes one client address may ask for, whatever the addresses. */
const PER_CLIENT: Limit = { max: 10, windowMs: 15 * 60_000 };
/** Codes one email address may be sent in an hour. */
const PER_ADDRESS_HOURLY: Limit = { max: 5, windowMs: 60 * 60_000 };
/** Every request is answered after this long, so the time does not tell whether an email was sent. */
const REQUEST_ANSWER_MS = 600;

export type CodeRequestOutcome = { ok: true } | { ok: false; status: number; message: string };

export async function requestSignInCode(
  email: string,
  clientAddress: string,
  redirectTo?: string,
): Promise<CodeRequestOutcome> {
  const byClient = await hit(`email-code:client:${clientAddress}`, PER_CLIENT);
  if (!byClient.allowed) return waitBeforeResend(byClient.retryAfterMs);
  const resendMs = config().emailCode.resendS * 1000;
  if (resendMs > 0) {
    const byAddress = await hit(`email-code:address:${email}`, { max: 1, windowMs: resendMs });
    if (!byAddress.allowed) return waitBeforeResend(byAddress.retryAfterMs);
  }
  const hourly = await hit(`email-code:address-hourly:${email}`, PER_ADDRESS_HOURLY);
  if (!hourly.allowed) return waitBeforeResend(hourly.retryAfterMs);

  const started = performance.now();
  try {
    const auth = await getAuth();
    // No headers: the request's own checks (origin, CAPTCHA, limits) are made by the page.
    await codeRequestContext.run({ redirectTo }, () =>
      auth.api.sendVerificationOTP({ body: { email, type: "sign-in" } }),
    );
    return { ok: true };
  } catch (error) {
    const refusal = await authRefusal(error);
    logger.error({ err: refusal ? refusal.code : error }, "sending a sign-in code failed");
    return { ok: false, status: 500, message: EMAIL_CODE_MESSAGES.sendFailed };
  } finally {
    const elapsed = performance.now() - started;
    if (elapsed < REQUEST_ANSWER_MS) await sleep(REQUEST_ANSWER_MS - elapsed);
  }
}

function waitBeforeResend(retryAfterMs: number): CodeRequestOutcome {
  return { ok: false, status: 429, message: EMAIL_CODE_MESSAGES.waitBeforeResend(waitText(retryAfterMs)) };
}

/** A code that signed someone in, remembered (as a hash) until it would have expired, to tell "already used" from "wrong". */
function usedCodeKey(email: string, code: string): string {
  return `email-code:used:${createHash("sha256").update(`${email}\n${code}`).digest("base64url")}`;
}

async function rememberUsedCode(email: string, code: string): Promise<void> {
  await hit(usedCodeKey(email, code), { max: 1, windowMs: config().emailCode.expiresS * 1000 });
}

async function wasUsed(email: string, code: string): Promise<boolean> {
  const db = await database();
  const rows = await db
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, usedCodeKey(email, code)), gt(rateLimits.resetAt, sql`now()`)));
  return rows.length > 0;
}

/** The account of `email`: whether it has a password and a confirmed address, before the library acts. */
async function accountState(
  email: string,
): Promise<{ id: string; hasPassword: boolean; emailVerified: boolean } | null> {
  const db = await database();
  const [profile] = await db
    .select({ id: profiles.id, emailVerified: profiles.emailVerified })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${email}`);
  if (!profile) return null;
  const credentials = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, profile.id), eq(accounts.providerId, "credential")));
  return { id: profile.id, hasPassword: credentials.length > 0, emailVerified: profile.emailVerified };
}

/**
 * The ways in (password, Discord) of an account whose address the code is about to prove for
 * the first time, when the code is given in the browser that made the account: the member who
 * chose that password a minute ago is the one who holds the mailbox, so what the library removes
 * on a first proof (see signInWithCode) is put back. Null otherwise.
 */
async function waysInToKeep(request: Request, before: Awaited<ReturnType<typeof accountState>>) {
  if (!before || before.emailVerified || !(await madeInThisBrowser(request, before.id))) return null;
  const db = await database();
  return db.select().from(accounts).where(eq(accounts.userId, before.id));
}

export type CodeSignInOutcome =
  { ok: true; setCookies: string[]; passwordRemoved: boolean } | { ok: false; status: number; message: string };

/**
 * Signs in with the code, which is used up. The attempts also count against the client's
 * sign-in limit. The first time an account's address is proven this way, the library removes
 * the password and ends the sessions the account had before (someone else may have made it
 * with this address): `passwordRemoved` says so, for the page to tell the member. In the
 * browser that made the account, the password is kept (sign-up-browser.server.ts).
 */
export async function signInWithCode(
  input: { email: string; code: string },
  request: Request,
  clientAddress: string,
): Promise<CodeSignInOutcome> {
  const byAddress = await hit(`signin:address:${clientAddress}`, signInPerAddress());
  if (!byAddress.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManySignIns };
  const before = await accountState(input.email);
  const kept = await waysInToKeep(request, before);
  const auth = await getAuth();
  try {
    const headers = new Headers({
      "user-agent": request.headers.get("user-agent") ?? "",
      [CLIENT_ADDRESS_HEADER]: clientAddress,
    });
    const result = await auth.api.signInEmailOTP({
      body: { email: input.email, otp: input.code },
      headers,
      returnHeaders: true,
    });
    await Promise.all([rememberUsedCode(input.email, input.code), forgiveAttempt(`signin:address:${clientAddress}`)]);
    if (kept && kept.length > 0) await (await database()).insert(accounts).values(kept).onConflictDoNothing();
    const passwordRemoved = Boolean(
      before && before.hasPassword && !before.emailVerified && !(await accountState(input.email))?.hasPassword,
    );
    return { ok: true, setCookies: result.headers.getSetCookie(), passwordRemoved };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (!refusal || refusal.status >= 500) {
      logger.error({ err: refusal ? refusal.code : error }, "signing in with a code failed");
      return { ok: false, status: 500, message: EMAIL_CODE_MESSAGES.signInFailed };
    }
    if (refusal.code === ACCOUNT_SUSPENDED_CODE) return { ok: false, status: 403, message: ACCOUNT_SUSPENDED_MESSAGE };
    if (refusal.code === "OTP_EXPIRED") return { ok: false, status: 400, message: EMAIL_CODE_MESSAGES.expiredCode };
    if (refusal.code === "TOO_MANY_ATTEMPTS")
      return { ok: false, status: 400, message: EMAIL_CODE_MESSAGES.tooManyTries };
    if (await wasUsed(input.email, input.code))
      return { ok: false, status: 400, message: EMAIL_CODE_MESSAGES.usedCode };
    // A wrong code, or none was sent to this address (it has no account): the same answer.
    return { ok: false, status: 400, message: EMAIL_CODE_MESSAGES.wrongCode };
  }
}
