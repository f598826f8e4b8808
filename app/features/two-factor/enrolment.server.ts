import { eq } from "drizzle-orm";
import { TWO_FACTOR_MESSAGES } from "./two-factor.form";
import { authRefusal, getAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { forgiveAttempt, hit, signInPerAccount } from "~/platform/rate-limit.server";
import { cookiesOf, type TwoFactorOutcome } from "./two-factor.server";

/**
 * Adding, renewing and removing an authenticator app and its backup codes on /profile/two-factor,
 * each after the member's password, through the auth library's two-factor plugin.
 */

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
export async function startEnrolment(
  request: Request,
  member: { email: string },
  password: string,
): Promise<TwoFactorOutcome<{ uri: string }>> {
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
    if (refusal?.code === "TOTP_ALREADY_ENABLED")
      return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.alreadyOn };
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
    if (refusal?.code === "INVALID_CODE")
      return { ok: false, status: 400, message: TWO_FACTOR_MESSAGES.wrongCode, field: "code" };
    if (refusal?.code === "TOTP_NOT_ENABLED") return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.failed };
    throw error;
  }
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: member.id } });
  return { ok: true, setCookies, backupCodes };
}

/** Ten new backup codes, after the password; the old ones stop working. */
export async function regenerateBackupCodes(
  request: Request,
  member: { email: string },
  password: string,
): Promise<TwoFactorOutcome<{ backupCodes: string[] }>> {
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
    if (refusal?.code === "TWO_FACTOR_NOT_ENABLED")
      return { ok: false, status: 409, message: TWO_FACTOR_MESSAGES.failed };
    throw error;
  }
}

/** Removes every factor after the password (the app, its backup codes, the phone). The library replaces the session (aal1 now). */
export async function removeSecondFactor(
  request: Request,
  member: { id: string; email: string },
  password: string,
): Promise<TwoFactorOutcome<{ setCookies: string[] }>> {
  const limit = await withinAccountLimit(member.email);
  if (!limit.allowed) return { ok: false, status: 429, message: TWO_FACTOR_MESSAGES.tooManyAttempts };
  const auth = await getAuth();
  try {
    const { headers } = await auth.api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      returnHeaders: true,
    });
    // The library's codes stop with the factor, so a phone for them has no use any more.
    const db = await database();
    await db
      .update(profiles)
      .set({ twoFactorPhone: null, twoFactorPhonePending: null })
      .where(eq(profiles.id, member.id));
    await limit.succeeded();
    return { ok: true, setCookies: cookiesOf(headers) };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD") return wrongPassword();
    throw error;
  }
}
