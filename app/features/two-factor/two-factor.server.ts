import { createHash } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { TWO_FACTOR_MESSAGES } from "./two-factor.form";
import type { SecondFactorKind } from "~/identity/factors.server";
import { safeRedirectTarget } from "~/web/redirect-target";
import { authRefusal, CLIENT_ADDRESS_HEADER, getAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { rateLimits, sessions } from "~/platform/db/schema";
import { otpDelivery, type OtpDelivery } from "~/identity/otp-delivery.server";
import { forgiveAttempt, hit, LIMITS, signInPerAccount, signInPerAddress } from "~/platform/rate-limit.server";
import { smsEnabled } from "~/platform/sms/sms.server";
import { ACCOUNT_SUSPENDED_CODE, ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";

/**
 * The second step of signing in, on the auth library's two-factor plugin
 * (app/identity/two-factor-plugin.server.ts): a code from the authenticator app, a
 * backup code or a texted code. Every call goes through `auth.api` with the request's own headers;
 * the cookies the library sets are returned for the page to pass on. Which factors a member has is
 * in factors.server.ts, adding and removing them in enrolment.server.ts.
 */

export type TwoFactorOutcome<T = object> =
  ({ ok: true } & T) | { ok: false; status: number; message: string; restart?: boolean; field?: "password" | "code" };

/** The page that asks for the second factor, keeping where the member was going, on the way to offer first (the app unless named). */
export function secondStepUrl(redirectTo: unknown, method?: SecondFactorKind): string {
  const target = safeRedirectTarget(redirectTo, "");
  const params = new URLSearchParams({
    ...(method && method !== "totp" ? { method } : {}),
    ...(target ? { redirectTo: target } : {}),
  });
  return params.size > 0 ? `/auth/two-factor?${params}` : "/auth/two-factor";
}

/** The cookies the library set on its answer, for the page to pass on to the browser. */
export function cookiesOf(headers: Headers): string[] {
  return headers.getSetCookie();
}

/** What a refused code means for the member, by the library's error code. */
function codeRefusal(
  code: string | undefined,
  kind: SecondFactorKind,
): { status: number; message: string; restart?: boolean } | null {
  switch (code) {
    case "INVALID_CODE":
      return {
        status: 400,
        message: kind === "sms" ? TWO_FACTOR_MESSAGES.wrongSmsCode : TWO_FACTOR_MESSAGES.wrongCode,
      };
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
 * Checks a code. Signing in: the library creates the session (aal2, app/identity/auth.server.ts)
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
  if (kind === "totp" && stepUp && (await totpCodeWasUsed(stepUp.userId, code)))
    return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsed, field: "code" };
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
    if (!stepUp)
      await auth.api.signOut({
        headers: new Headers({
          cookie: cookiesOf(answer.headers)
            .map((cookie) => cookie.split(";")[0])
            .join("; "),
        }),
      });
    return stepUp
      ? { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsed, field: "code" }
      : { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.codeUsedSignIn, restart: true };
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
export async function textSecondFactorCode(
  request: Request,
  clientAddress: string,
  stepUp: StepUp | null,
): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  if (!smsEnabled()) return { ok: false, status: 404, message: TWO_FACTOR_MESSAGES.noPhone };
  return sendTextedCode(request, clientAddress, stepUp);
}

/**
 * The library makes the code (replacing any earlier one of this sign-in or session) and hands
 * it to its callback, which queues it as a text message (otp-delivery.server.ts).
 */
async function sendTextedCode(
  request: Request,
  clientAddress: string,
  stepUp: StepUp | null,
): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  const prefix = "two-factor-sms";
  const byAddress = await hit(`${prefix}:address:${clientAddress}`, LIMITS.resetPerAddress);
  const byAccount = stepUp
    ? await hit(`${prefix}:account:${stepUp.userId}`, LIMITS.resetPerAddress)
    : { allowed: true };
  if (!byAddress.allowed || !byAccount.allowed)
    return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  const delivery: OtpDelivery = { channel: "sms" };
  try {
    const answer = await otpDelivery.run(delivery, () =>
      auth.api.sendTwoFactorOTP({ body: {}, headers: secondStepHeaders(request, clientAddress), returnHeaders: true }),
    );
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
  return QRCode.toString(uri, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#000000", light: "#ffffff" },
  });
}

/** The secret of an otpauth:// address, in groups of four for typing into an app by hand. */
export function typedSecretOf(uri: string): string | null {
  try {
    const secret = new URL(uri).searchParams.get("secret");
    if (!secret || !/^[A-Z2-7]+=*$/i.test(secret)) return null;
    return secret
      .replace(/=+$/, "")
      .toUpperCase()
      .match(/.{1,4}/g)!
      .join(" ");
  } catch {
    return null;
  }
}
