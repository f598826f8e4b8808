import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { authRefusal, type AuthRefusal, CLIENT_ADDRESS_HEADER, getAuth, siteOrigin } from "~/identity/auth.server";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { invitationLinkReplaced } from "./invitation-links.server";
import { logger } from "~/platform/logger.server";
import { passwordChangedEmail } from "~/platform/mail/templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { upgradeImportedPassword } from "./password-upgrade.server";
import { forgiveAttempt, hit, LIMITS, signInPerAccount, signInPerAddress } from "~/platform/rate-limit.server";
import { ACCOUNT_SUSPENDED_CODE, ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";
import { preferredSecondFactor, type SecondFactorKind } from "~/identity/factors.server";

export type AuthOutcome<T = object> = ({ ok: true } & T) | { ok: false; status: number; message: string };

/**
 * What a member is told when the auth library refuses, by its error code: its codes are part
 * of its API, its wording is not, so the messages members see are written here and do not
 * change with an upgrade. The old site showed the auth service's own message; these are the
 * library's words as it gives them today. An unknown code still shows the library's message.
 */
const REFUSALS: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Invalid email or password",
  INVALID_EMAIL: "Invalid email",
  INVALID_PASSWORD: "Invalid password",
  PASSWORD_TOO_SHORT: "Password too short",
  PASSWORD_TOO_LONG: "Password too long",
  [ACCOUNT_SUSPENDED_CODE]: ACCOUNT_SUSPENDED_MESSAGE,
};

function refusalMessage(refusal: AuthRefusal | null, fallback: string = MESSAGES.authDefault): string {
  if (!refusal) return fallback;
  return (refusal.code && REFUSALS[refusal.code]) || refusal.message || fallback;
}

export async function emailIsRegistered(email: string): Promise<boolean> {
  const db = await database();
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()));
  return row !== undefined;
}

type NewAccount = { firstName: string; lastName: string; email: string; password: string };

/** Sign-up from the web: at most one per client address every SIGNUP_THROTTLE_MS (11 s). */
export async function signUp(input: NewAccount, clientAddress: string): Promise<AuthOutcome<{ userId: string }>> {
  const throttle = await hit(`signup:${clientAddress}`, { max: 1, windowMs: config().signupThrottleMs });
  if (!throttle.allowed) return { ok: false, status: 429, message: MESSAGES.signupThrottle };
  return createAccount(input);
}

/**
 * Creates the account and its profile (one row of the profiles table, with the
 * password in accounts) in one transaction: both exist, or neither does.
 * New accounts are applicants; the role is never taken from the input.
 */
export async function createAccount(input: NewAccount): Promise<AuthOutcome<{ userId: string }>> {
  if (await emailIsRegistered(input.email)) return { ok: false, status: 409, message: SITE_MESSAGES.emailTaken };
  const auth = await getAuth();
  try {
    const { user } = await auth.api.signUpEmail({
      body: {
        name: `${input.firstName} ${input.lastName}`,
        email: input.email,
        password: input.password,
        firstName: input.firstName,
        lastName: input.lastName,
      },
    });
    return { ok: true, userId: user.id };
  } catch (error) {
    const refusal = await authRefusal(error);
    logger.warn({ err: refusal ? refusal.code : error }, "sign-up failed");
    if (!refusal || refusal.code === "FAILED_TO_CREATE_USER")
      return { ok: false, status: 500, message: MESSAGES.profileFailed };
    // Another sign-up with this address won the race past the check above.
    if (refusal.code === "USER_ALREADY_EXISTS" || refusal.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
      return { ok: false, status: 409, message: SITE_MESSAGES.emailTaken };
    }
    return { ok: false, status: refusal.status || 400, message: refusalMessage(refusal) };
  }
}

/**
 * Counts an address as confirmed because the operator vouched for it (`npm run admin -- create-user`
 * types it): the first emailed code then keeps the account's password, as after any confirmed
 * address (decision 0018).
 */
export async function confirmAddressVouchedFor(userId: string): Promise<void> {
  const db = await database();
  await db.update(profiles).set({ emailVerified: true }).where(eq(profiles.id, userId));
}

/**
 * Signs in and returns the cookies to set. Limited per address and per account. For a member
 * with a second factor the password is only the first step (`secondStep`): the cookies then
 * carry the library's short-lived two-factor challenge instead of a session, and the sign-in
 * finishes on /auth/two-factor (app/features/two-factor/two-factor.server.ts).
 */
export async function signIn(
  input: { email: string; password: string },
  request: Request,
  clientAddress: string,
): Promise<AuthOutcome<{ setCookies: string[]; secondStep: boolean; secondStepMethod?: SecondFactorKind }>> {
  const limitKeys = [`signin:address:${clientAddress}`, `signin:account:${input.email}`];
  const [byAddress, byAccount] = await Promise.all([
    hit(limitKeys[0]!, signInPerAddress()),
    hit(limitKeys[1]!, signInPerAccount()),
  ]);
  if (!byAddress.allowed || !byAccount.allowed)
    return { ok: false, status: 429, message: SITE_MESSAGES.tooManySignIns };
  const auth = await getAuth();
  try {
    const headers = new Headers({
      "user-agent": request.headers.get("user-agent") ?? "",
      [CLIENT_ADDRESS_HEADER]: clientAddress,
    });
    const result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password },
      headers,
      returnHeaders: true,
    });
    // A right password is no guess: only wrong ones use up the limits.
    await Promise.all(limitKeys.map(forgiveAttempt));
    await upgradeImportedPassword(input.email, input.password).catch((error: unknown) =>
      logger.error({ err: error }, "replacing an imported password hash failed"),
    );
    // The two-factor plugin answers a right password with this flag instead of a session.
    const answer = result.response as { twoFactorRedirect?: boolean; twoFactorMethods?: string[] } | null;
    const secondStep = answer?.twoFactorRedirect === true;
    // Without an authenticator app the library's texted codes are the way.
    const secondStepMethod =
      secondStep && !answer?.twoFactorMethods?.includes("totp") ? await secondStepMethodFor(input.email) : undefined;
    return { ok: true, setCookies: result.headers.getSetCookie(), secondStep, secondStepMethod };
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal?.code === ACCOUNT_SUSPENDED_CODE) return { ok: false, status: 403, message: ACCOUNT_SUSPENDED_MESSAGE };
    if (refusal) return { ok: false, status: refusal.status >= 500 ? 500 : 401, message: refusalMessage(refusal) };
    logger.error({ err: error }, "sign-in failed");
    return { ok: false, status: 500, message: MESSAGES.authDefault };
  }
}

async function secondStepMethodFor(email: string): Promise<SecondFactorKind | undefined> {
  const db = await database();
  const [member] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()));
  return member ? preferredSecondFactor(member.id) : undefined;
}

/**
 * Ends the session on the server and returns the cookies that clear it in the browser.
 * The library clears them whether or not a session was found.
 */
export async function signOut(request: Request): Promise<string[]> {
  const auth = await getAuth();
  const result = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
  return result.headers.getSetCookie();
}

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
