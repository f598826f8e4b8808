import { EMAIL_CHANGE_MESSAGES } from "./email-code.form";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { emailIsRegistered } from "./accounts.server";
import { hasPassword } from "./reauthenticate.server";
import { isUniqueViolation } from "~/platform/db/constraint-errors.server";
import { authRefusal, getAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { logger } from "~/platform/logger.server";
import { emailChangedEmail } from "~/platform/mail/account-templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { hit, signInPerAccount } from "~/platform/rate-limit.server";

/**
 * A member changes their email address: they give the new one and their current password,
 * the auth library signs a link that goes to the new address (auth-email.server.ts), and the
 * address changes only when that link is followed by the member, signed in. The old address
 * then gets a notice. An address of another account is refused at both steps.
 */

type Member = { id: string; email: string; firstName: string };
export type EmailChangeOutcome =
  { ok: true } | { ok: false; status: number; message: string; field?: "newEmail" | "currentPassword" };

export async function requestEmailChange(
  request: Request,
  member: Member,
  input: { newEmail: string; currentPassword: string },
): Promise<EmailChangeOutcome> {
  if (input.newEmail === member.email.toLowerCase())
    return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.sameEmail, field: "newEmail" };
  // The password is checked here too: the attempts count against the account's sign-in limit.
  const byAccount = await hit(`signin:account:${member.email.toLowerCase()}`, signInPerAccount());
  if (!byAccount.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManyPasswordChanges };
  if (!(await hasPassword(member.id))) return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.noPassword };
  const auth = await getAuth();
  try {
    await auth.api.verifyPassword({ body: { password: input.currentPassword }, headers: request.headers });
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "INVALID_PASSWORD")
      return { ok: false, status: 400, message: SITE_MESSAGES.wrongCurrentPassword, field: "currentPassword" };
    throw error;
  }
  // Only after the password: whether an address has an account is told to its holder alone.
  if (await emailIsRegistered(input.newEmail))
    return { ok: false, status: 409, message: EMAIL_CHANGE_MESSAGES.taken, field: "newEmail" };
  await auth.api.changeEmail({ body: { newEmail: input.newEmail }, headers: request.headers });
  return { ok: true };
}

export type EmailConfirmOutcome =
  { ok: true; newEmail: string; setCookies: string[] } | { ok: false; status: number; message: string };

/** Makes the change the link's token carries, for the signed-in member it was made for, and tells the old address. */
export async function confirmEmailChange(
  request: Request,
  member: Member,
  token: string,
): Promise<EmailConfirmOutcome> {
  if (!token || token.length > 2000) return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.linkInvalid };
  const auth = await getAuth();
  let result;
  try {
    result = await auth.api.verifyEmail({ query: { token }, headers: request.headers, returnHeaders: true });
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === "TOKEN_EXPIRED")
      return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.linkExpired };
    if (refusal?.code === "INVALID_USER")
      return { ok: false, status: 403, message: EMAIL_CHANGE_MESSAGES.otherAccount };
    if (refusal && refusal.status < 500) return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.linkInvalid };
    // The new address was taken by another account since the link was sent (the unique index refuses it).
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: EMAIL_CHANGE_MESSAGES.taken };
    throw error;
  }
  // The library's answer to a change: the member as now stored.
  const updated = (result.response as { user?: { id: string; email: string } | null } | null)?.user;
  // A link confirming an address without changing it (not one the site sends) changes nothing here.
  if (!updated || updated.id !== member.id || updated.email.toLowerCase() === member.email.toLowerCase()) {
    return { ok: false, status: 400, message: EMAIL_CHANGE_MESSAGES.linkInvalid };
  }
  try {
    const db = await database();
    await queueEmail(
      db,
      emailChangedEmail({ to: member.email, firstName: member.firstName, newEmail: updated.email, by: "member" }),
    );
  } catch (error) {
    // The change is made: a notice that could not be queued is logged, not shown.
    logger.error({ err: error }, "queueing the email-changed notice failed");
  }
  return { ok: true, newEmail: updated.email, setCookies: result.headers.getSetCookie() };
}
