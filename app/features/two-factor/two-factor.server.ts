import { createHash } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { ACCOUNT_SUSPENDED_MESSAGE } from "~/features/member-admin/member-admin.form";
import { TWO_FACTOR_MESSAGES, type SecondFactorKind } from "./two-factor.form";
import { CLIENT_ADDRESS_HEADER } from "~/web/request-context";
import { safeRedirectTarget } from "~/web/redirect-target";
import { authRefusal, getAuth } from "~/features/accounts/auth.server";
import { database } from "~/platform/db/client.server";
import { passkeys, profiles, rateLimits, sessions, twoFactors } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { otpDelivery, type OtpDelivery } from "./otp-delivery.server";
import { forgiveAttempt, hit, LIMITS, signInPerAccount, signInPerAddress } from "~/platform/rate-limit.server";
import { maskPhone, smsEnabled } from "~/platform/sms/sms.server";
import { ACCOUNT_SUSPENDED_CODE } from "~/features/accounts/suspension.server";

/**
 * Second factors, on the auth library's two-factor plugin (app/features/two-factor/two-factor-plugin.server.ts):
 * enrolling an authenticator app, backup codes, removing the factor, and the second step of
 * signing in. Every call goes through `auth.api` with the request's own headers; the cookies the
 * library sets are returned for the page to pass on.
 */

export type TwoFactorOutcome<T = object> = ({ ok: true } & T) | { ok: false; status: number; message: string; restart?: boolean; field?: "password" | "code" };

/** The page that asks for the second factor, keeping where the member was going, on the way to offer first (the app unless named). */
export function secondStepUrl(redirectTo: unknown, method?: SecondFactorKind): string {
  const target = safeRedirectTarget(redirectTo, "");
  const params = new URLSearchParams({ ...(method && method !== "totp" ? { method } : {}), ...(target ? { redirectTo: target } : {}) });
  return params.size > 0 ? `/auth/two-factor?${params}` : "/auth/two-factor";
}

/** Whether the member has a confirmed second factor. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db.select({ enabled: profiles.twoFactorEnabled }).from(profiles).where(eq(profiles.id, userId));
  return row?.enabled === true;
}

/** Whether the member has a confirmed authenticator app (with its backup codes). */
export async function hasAuthenticatorApp(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db
    .select({ id: twoFactors.id })
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, userId), eq(twoFactors.verified, true)))
    .limit(1);
  return row !== undefined;
}

/** The member's numbers for texted codes (E.164): the confirmed one, and one being added, waiting for its first code. */
export async function phoneFactorOf(userId: string): Promise<{ confirmed: string | null; pending: string | null }> {
  const db = await database();
  const [row] = await db.select({ confirmed: profiles.twoFactorPhone, pending: profiles.twoFactorPhonePending }).from(profiles).where(eq(profiles.id, userId));
  return { confirmed: row?.confirmed ?? null, pending: row?.pending ?? null };
}

export type TwoFactorStatus = {
  enabled: boolean;
  /** An authenticator app is set up (with backup codes). */
  app: boolean;
  backupCodesLeft: number | null;
  /** The confirmed phone for texted codes, shown by its last two digits. */
  phone: string | null;
  /** Whether text messages can be sent at all (SMS_WEBHOOK_URL). */
  sms: boolean;
};

/** What /profile/two-factor shows: on or off, which factors, and how many backup codes are left. */
export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const [enabled, app, phone] = await Promise.all([hasSecondFactor(userId), hasAuthenticatorApp(userId), phoneFactorOf(userId)]);
  const shown = { enabled, app, phone: enabled && phone.confirmed ? maskPhone(phone.confirmed) : null, sms: smsEnabled() };
  if (!enabled || !app) return { ...shown, backupCodesLeft: null };
  const auth = await getAuth();
  try {
    const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } });
    return { ...shown, backupCodesLeft: backupCodes.length };
  } catch (error) {
    logger.warn({ err: (await authRefusal(error))?.code ?? error }, "reading the number of backup codes failed");
    return { ...shown, backupCodesLeft: null };
  }
}

/** Whether the member has a passkey: it signs in with two factors at once (aal2), so it counts as one. */
export async function hasPasskey(userId: string): Promise<boolean> {
  const db = await database();
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * The ways a signed-in member can prove a second factor on /auth/two-factor: their
 * authenticator app (with its backup codes), their phone (only while texts can be sent) and
 * their passkeys. Never their email: the mailbox is what an emailed sign-in code, a reset link
 * and an invitation already prove (docs/decisions/0017-a-second-factor-is-a-second-factor.md).
 */
export type SecondFactorWays = { app: boolean; phone: boolean; passkey: boolean };

export async function secondFactorWaysOf(userId: string): Promise<SecondFactorWays> {
  const [app, phone, passkey] = await Promise.all([hasAuthenticatorApp(userId), phoneFactorOf(userId), hasPasskey(userId)]);
  return { app, phone: phone.confirmed !== null && smsEnabled(), passkey };
}

/**
 * Whether the member has anything that proves a second factor: a factor of the two-factor
 * plugin (an app or a phone) or a passkey. A session proven by less may not add a new one
 * (app/features/two-factor/two-factor-gate.server.ts), or whoever holds the mailbox could add their own.
 */
export async function hasAnyFactor(userId: string): Promise<boolean> {
  const [enabled, passkey] = await Promise.all([hasSecondFactor(userId), hasPasskey(userId)]);
  return enabled || passkey;
}

/** The way /auth/two-factor first offers to a member with a factor: their authenticator app, else a code texted to their phone. */
export async function preferredSecondFactor(userId: string): Promise<SecondFactorKind> {
  const ways = await secondFactorWaysOf(userId);
  return !ways.app && ways.phone ? "sms" : "totp";
}

function cookiesOf(headers: Headers): string[] {
  return headers.getSetCookie();
}

function wrongPassword(): TwoFactorOutcome<never> {
  return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.wrongPassword, field: "password" };
}

/**
 * The password and code attempts on these forms count against the same per-account limit as
 * signing in; like there, a right one is given back (only wrong ones use the limit up).
 */
async function withinAccountLimit(email: string): Promise<{ allowed: boolean; succeeded: () => Promise<void> }> {
  const key = `signin:account:${email.toLowerCase()}`;
  const { allowed } = await hit(key, signInPerAccount());
  return { allowed, succeeded: () => forgiveAttempt(key) };
}

/**
 * Enrolment, step one: the password is checked and the library makes a secret (stored
 * encrypted, unconfirmed) and answers with its otpauth:// address for the QR code.
 */
export async function startEnrolment(request: Request, member: { email: string }, password: string): Promise<TwoFactorOutcome<{ uri: string }>> {
  const limit = await withinAccountLimit(member.email);
  if (!limit.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  try {
    const answer = await auth.api.enableTwoFactor({ body: { password, method: "totp" }, headers: request.headers });
    if (!("totpURI" in answer) || !answer.totpURI) throw new Error("the library answered without a TOTP address");
    await limit.succeeded();
    return { ok: true, uri: answer.totpURI };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD") return wrongPassword();
    if (refusal?.code === "TOTP_ALREADY_ENABLED") return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.alreadyOn };
    throw error;
  }
}

/**
 * Enrolment, step two: the first code from the app confirms the secret. The library then turns
 * two-factor on and replaces the session (with one proven by that code: aal2); the ten backup
 * codes it made are read once, to be shown.
 */
export async function confirmEnrolment(
  request: Request,
  member: { id: string; email: string },
  code: string,
): Promise<TwoFactorOutcome<{ setCookies: string[]; backupCodes: string[] }>> {
  const limit = await withinAccountLimit(member.email);
  if (!limit.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  let setCookies: string[];
  try {
    const { headers } = await auth.api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true });
    setCookies = cookiesOf(headers);
    await limit.succeeded();
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_CODE") return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.wrongCode, field: "code" };
    if (refusal?.code === "TOTP_NOT_ENABLED") return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.failed };
    throw error;
  }
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: member.id } });
  return { ok: true, setCookies, backupCodes };
}

/** Ten new backup codes, after the password; the old ones stop working. */
export async function regenerateBackupCodes(request: Request, member: { email: string }, password: string): Promise<TwoFactorOutcome<{ backupCodes: string[] }>> {
  const limit = await withinAccountLimit(member.email);
  if (!limit.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  try {
    const { backupCodes } = await auth.api.generateBackupCodes({ body: { password }, headers: request.headers });
    await limit.succeeded();
    return { ok: true, backupCodes };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD") return wrongPassword();
    if (refusal?.code === "TWO_FACTOR_NOT_ENABLED") return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.failed };
    throw error;
  }
}

/** Removes every factor after the password (the app, its backup codes, the phone). The library replaces the session (aal1 now). */
export async function removeSecondFactor(request: Request, member: { id: string; email: string }, password: string): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  const limit = await withinAccountLimit(member.email);
  if (!limit.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  try {
    const { headers } = await auth.api.disableTwoFactor({ body: { password }, headers: request.headers, returnHeaders: true });
    // The library's codes stop with the factor, so a phone for them has no use any more.
    const db = await database();
    await db.update(profiles).set({ twoFactorPhone: null, twoFactorPhonePending: null }).where(eq(profiles.id, member.id));
    await limit.succeeded();
    return { ok: true, setCookies: cookiesOf(headers) };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD") return wrongPassword();
    throw error;
  }
}

/** What a refused code means for the member, by the library's error code. */
function codeRefusal(code: string | undefined, kind: SecondFactorKind): { status: number; message: string; restart?: boolean } | null {
  switch (code) {
    case "INVALID_CODE":
      return { status: 400, message: kind === "sms" ? TWO_FACTOR_MESSAGES.wrongSmsCode : TWO_FACTOR_MESSAGES.wrongCode };
    case "INVALID_BACKUP_CODE":
      return { status: 400, message: TWO_FACTOR_MESSAGES.wrongBackupCode };
    case "INVALID_TWO_FACTOR_COOKIE":
      return { status: 400, message: TWO_FACTOR_MESSAGES.stepExpired, restart: true };
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      if (kind === "sms") return { status: 429, message: TWO_FACTOR_MESSAGES.tooManySmsTries };
      return { status: 429, message: TWO_FACTOR_MESSAGES.tooManyTries, restart: true };
    case "OTP_HAS_EXPIRED":
      return { status: 400, message: TWO_FACTOR_MESSAGES.smsCodeExpired };
    case "ACCOUNT_TEMPORARILY_LOCKED":
      return { status: 429, message: TWO_FACTOR_MESSAGES.locked };
    case ACCOUNT_SUSPENDED_CODE:
      return { status: 403, message: ACCOUNT_SUSPENDED_MESSAGE, restart: true };
    case "TOTP_NOT_ENABLED":
    case "BACKUP_CODES_NOT_ENABLED":
      // A member whose codes come by text only: the other ways stay offered.
      return { status: 400, message: TWO_FACTOR_MESSAGES.noApp };
    case "TWO_FACTOR_NOT_ENABLED":
      return { status: 400, message: TWO_FACTOR_MESSAGES.noFactor, restart: true };
    default:
      return null;
  }
}

/**
 * The headers the library reads for the second step: the browser's cookies (its two-factor
 * challenge, or the session being stepped up), and the user agent and client address the new
 * session records.
 */
function secondStepHeaders(request: Request, clientAddress: string): Headers {
  return new Headers({
    cookie: request.headers.get("cookie") ?? "",
    "user-agent": request.headers.get("user-agent") ?? "",
    [CLIENT_ADDRESS_HEADER]: clientAddress,
  });
}

/**
 * A signed-in member being asked for the second factor again (a session proven by the password
 * alone, on a page that needs more): `stepUp` names them. Otherwise this is the second step of
 * signing in, read from the library's short-lived challenge cookie.
 */
export type StepUp = { userId: string; email: string };

/** How long an authenticator code is remembered as used: the library takes it for a step either side of its own 30 seconds. */
const TOTP_CODE_LIFETIME_MS = 3 * 30_000;

function usedTotpKey(userId: string, code: string): string {
  return `totp:used:${createHash("sha256").update(`${userId}\n${code}`).digest("base64url")}`;
}

/**
 * Records an authenticator code as used by the member, and says whether it was the first use:
 * a code is good once per account, so one read over a shoulder or from a phishing page cannot
 * sign in a second session while it is still shown. One statement, so two sessions giving the
 * same code at once cannot both win.
 */
async function claimTotpCode(userId: string, code: string): Promise<boolean> {
  return (await hit(usedTotpKey(userId, code), { max: 1, windowMs: TOTP_CODE_LIFETIME_MS })).allowed;
}

async function totpCodeWasUsed(userId: string, code: string): Promise<boolean> {
  const db = await database();
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, usedTotpKey(userId, code)), gt(rateLimits.resetAt, sql`now()`)));
  return row !== undefined;
}

/**
 * Checks a code. Signing in: the library creates the session (aal2, app/features/accounts/auth.server.ts)
 * and counts failures: five per sign-in, and a lock after ten in a row. Stepping up: the library
 * checks the code against the member's factor and this session is marked as proven by it. Both
 * count against our limits too (wrong codes only: a right one is given back): codes per address
 * when signing in (a budget of their own, the size of the sign-in one), the account's sign-in
 * limit when stepping up. An authenticator code works once per account.
 */
export async function verifySecondFactor(
  request: Request,
  clientAddress: string,
  kind: SecondFactorKind,
  code: string,
  stepUp: StepUp | null,
): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  const throttleKey = stepUp ? `signin:account:${stepUp.email.toLowerCase()}` : `two-factor:address:${clientAddress}`;
  const throttle = await hit(throttleKey, stepUp ? signInPerAccount() : signInPerAddress());
  if (!throttle.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  if (kind === "totp" && stepUp && (await totpCodeWasUsed(stepUp.userId, code))) return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsed, field: "code" };
  const auth = await getAuth();
  const headers = secondStepHeaders(request, clientAddress);
  let answer: { headers: Headers; response: { user?: { id: string } } };
  try {
    const body = { code };
    answer =
      kind === "totp"
        ? await auth.api.verifyTOTP({ body, headers, returnHeaders: true })
        : kind === "backup"
          ? await auth.api.verifyBackupCode({ body, headers, returnHeaders: true })
          : // A texted code: the library's one-time code.
            await auth.api.verifyTwoFactorOTP({ body, headers, returnHeaders: true });
  } catch (error) {
    const refusal = await authRefusal(error);
    const refused = refusal ? codeRefusal(refusal.code, kind) : null;
    if (refused) return { ok: false, ...refused, field: refused.restart ? undefined : "code" };
    throw error;
  }
  const userId = stepUp?.userId ?? answer.response.user?.id;
  if (kind === "totp" && userId && !(await claimTotpCode(userId, code))) {
    // Given again (by someone else, or twice at once): the session the library just made for it is ended.
    if (!stepUp) await auth.api.signOut({ headers: new Headers({ cookie: cookiesOf(answer.headers).map((cookie) => cookie.split(";")[0]).join("; ") }) });
    return stepUp ? { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsed, field: "code" } : { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsedSignIn, restart: true };
  }
  await forgiveAttempt(throttleKey);
  if (stepUp) await markSessionProven(request, stepUp.userId);
  return { ok: true, setCookies: cookiesOf(answer.headers) };
}

/**
 * After the library accepted a code for a signed-in session (or saved a passkey the member just
 * made with it), that session is proven by two factors: its assurance level, our own column, is
 * raised. The library keeps the session (it replaces none then).
 */
export async function markSessionProven(request: Request, userId: string): Promise<void> {
  const auth = await getAuth();
  const current = await auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } });
  if (!current || current.user.id !== userId) throw new Error("the session to step up has gone");
  const db = await database();
  await db.update(sessions).set({ assuranceLevel: "aal2" }).where(eq(sessions.id, current.session.id));
}

/** Texts a one-time code to the member's confirmed phone (through the outbox, never logged); limited per client address and per account. */
export async function textSecondFactorCode(request: Request, clientAddress: string, stepUp: StepUp | null): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  if (!smsEnabled()) return { ok: false, status: 404, message: TWO_FACTOR_MESSAGES.noPhone };
  return sendTextedCode(request, clientAddress, stepUp);
}

/**
 * The library makes the code (replacing any earlier one of this sign-in or session) and hands
 * it to its callback, which queues it as a text message (otp-delivery.server.ts).
 */
async function sendTextedCode(request: Request, clientAddress: string, stepUp: StepUp | null): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  const prefix = "two-factor-sms";
  const byAddress = await hit(`${prefix}:address:${clientAddress}`, LIMITS.resetPerAddress);
  const byAccount = stepUp ? await hit(`${prefix}:account:${stepUp.userId}`, LIMITS.resetPerAddress) : { allowed: true };
  if (!byAddress.allowed || !byAccount.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  const delivery: OtpDelivery = { channel: "sms" };
  try {
    const answer = await otpDelivery.run(delivery, () => auth.api.sendTwoFactorOTP({ body: {}, headers: secondStepHeaders(request, clientAddress), returnHeaders: true }));
    if (delivery.outcome === "no-phone") return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.noPhone };
    if (delivery.outcome !== "queued") return { ok: false, status: 500, message: TWO_FACTOR_MESSAGES.failed };
    return { ok: true, setCookies: cookiesOf(answer.headers) };
  } catch (error) {
    const refusal = await authRefusal(error);
    const answer = refusal ? codeRefusal(refusal.code, "sms") : null;
    if (answer) return { ok: false, ...answer };
    throw error;
  }
}

/** The QR code of an otpauth:// address, as an SVG drawing to put inline in the page. */
export async function qrCodeSvg(uri: string): Promise<string> {
  // A CommonJS package: its functions are on the module's default export.
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#000000", light: "#ffffff" } });
}

/** The secret of an otpauth:// address, in groups of four for typing into an app by hand. */
export function typedSecretOf(uri: string): string | null {
  try {
    const secret = new URL(uri).searchParams.get("secret");
    if (!secret || !/^[A-Z2-7]+=*$/i.test(secret)) return null;
    return secret.replace(/=+$/, "").toUpperCase().match(/.{1,4}/g)!.join(" ");
  } catch {
    return null;
  }
}
