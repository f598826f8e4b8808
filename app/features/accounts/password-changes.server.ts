import { setTimeout as sleep } from "node:timers/promises";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { authRefusal, getAuth, siteOrigin } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { logger } from "~/platform/logger.server";
import { passwordChangedEmail } from "~/platform/mail/templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { forgiveAttempt, hit, LIMITS, signInPerAccount } from "~/platform/rate-limit.server";
import { refusalMessage, type AuthOutcome } from "./accounts.server";
import { invitationLinkReplaced } from "./invitation-links.server";

// A forgotten password (the emailed link, checked and used) and a changed one (with the
// current password, and a notice to the member).

/** Every reset request answers after the same time, so the answer does not tell whether the address has an account. */
const RESET_ANSWER_MS = 800;

export async function requestPasswordReset(email: string, clientAddress: string): Promise<AuthOutcome> {
  const byAddress = await hit(`reset:address:${clientAddress}`, LIMITS.resetPerAddress);
  if (!byAddress.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManyResets };
  const started = performance.now();
  try {
    const byAccount = await hit(`reset:account:${email}`, LIMITS.resetPerAccount);
    // Past the per-account limit the answer is the same, but no more email is sent.
    if (byAccount.allowed) {
      const auth = await getAuth();
      await auth.api.requestPasswordReset({ body: { email } });
    }
  } catch (error) {
    logger.error({ err: error }, "password reset request failed");
    return { ok: false, status: 500, message: MESSAGES.resetEmailFailed };
  } finally {
    const elapsed = performance.now() - started;
    if (elapsed < RESET_ANSWER_MS) await sleep(RESET_ANSWER_MS - elapsed);
  }
  return { ok: true };
}

/** Where the library's check of a reset link sends the browser: back to our page, with `token` or `error`. */
const RESET_PAGE = "/reset-password";

export type ResetLinkState = "valid" | "invalid" | "replaced";

/**
 * Whether a password link can still set a password: "replaced" for an invitation a newer one
 * replaced (invitation-links.server.ts), else what the library's own check of a reset link
 * says (the endpoint behind the link its emails would carry, which answers with a redirect to
 * our page carrying either the token or an error).
 */
export async function resetLinkState(token: string): Promise<ResetLinkState> {
  if (!token || token.length > 200) return "invalid";
  if (await invitationLinkReplaced(await database(), token)) return "replaced";
  const auth = await getAuth();
  const answer = await auth.api.requestPasswordResetCallback({
    params: { token },
    query: { callbackURL: RESET_PAGE },
    asResponse: true,
  });
  const location = answer.headers.get("Location");
  if (!location) return "invalid";
  const target = new URL(location, siteOrigin());
  return target.pathname === RESET_PAGE &&
    !target.searchParams.has("error") &&
    target.searchParams.get("token") === token
    ? "valid"
    : "invalid";
}

/** True when `token` is a live password link. */
export async function resetTokenIsValid(token: string): Promise<boolean> {
  return (await resetLinkState(token)) === "valid";
}

/** Sets the new password, uses up the token and ends the member's sessions everywhere. */
export async function resetPassword(token: string, password: string): Promise<AuthOutcome> {
  const db = await database();
  if (await invitationLinkReplaced(db, token))
    return { ok: false, status: 400, message: SITE_MESSAGES.invitationReplaced };
  const auth = await getAuth();
  try {
    await auth.api.resetPassword({ body: { token, newPassword: password } });
    return { ok: true };
  } catch (error) {
    const refusal = await authRefusal(error);
    // A used, expired or unknown token (INVALID_TOKEN), or a password the library refuses.
    if (refusal && refusal.status < 500) return { ok: false, status: 400, message: SITE_MESSAGES.resetLinkInvalid };
    logger.error({ err: refusal ? refusal.code : error }, "password reset failed");
    return { ok: false, status: 500, message: refusalMessage(refusal, MESSAGES.resetFailed) };
  }
}

export type PasswordChange = { currentPassword: string; newPassword: string; signOutOthers: boolean };
export type PasswordChangeOutcome =
  { ok: true; setCookies: string[] } | { ok: false; status: number; message: string; field?: "currentPassword" };

/**
 * A signed-in member changes their password, knowing the current one. The attempts count
 * against the same per-account limit as sign-in, so this form is no second way to guess the
 * password. Ending the other sessions makes the library replace this one too: the returned
 * cookies carry the new session and must reach the browser, or this device is signed out.
 */
export async function changePassword(
  request: Request,
  member: { email: string; firstName: string },
  input: PasswordChange,
): Promise<PasswordChangeOutcome> {
  const accountKey = `signin:account:${member.email.toLowerCase()}`;
  const byAccount = await hit(accountKey, signInPerAccount());
  if (!byAccount.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManyPasswordChanges };
  const auth = await getAuth();
  try {
    const result = await auth.api.changePassword({
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: input.signOutOthers,
      },
      headers: request.headers,
      returnHeaders: true,
    });
    await forgiveAttempt(accountKey);
    await tellMemberPasswordChanged(member);
    return { ok: true, setCookies: result.headers.getSetCookie() };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD") {
      return { ok: false, status: 400, message: SITE_MESSAGES.wrongCurrentPassword, field: "currentPassword" };
    }
    if (refusal && refusal.status < 500)
      return { ok: false, status: 400, message: refusalMessage(refusal, SITE_MESSAGES.passwordChangeFailed) };
    throw error;
  }
}

/** The email that a password was changed. The change is made: a failure to queue it is logged, not shown. */
async function tellMemberPasswordChanged(member: { email: string; firstName: string }): Promise<void> {
  try {
    const db = await database();
    await queueEmail(
      db,
      passwordChangedEmail({
        to: member.email,
        firstName: member.firstName,
        resetLink: `${siteOrigin()}/forgot-password`,
      }),
    );
  } catch (error) {
    logger.error({ err: error }, "queueing the password-changed email failed");
  }
}
