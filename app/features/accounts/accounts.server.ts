import { eq, sql } from "drizzle-orm";
import { MESSAGES, SITE_MESSAGES } from "~/web/forms/messages";
import { authRefusal, type AuthRefusal, CLIENT_ADDRESS_HEADER, getAuth } from "~/identity/auth.server";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { upgradeImportedPassword } from "./password-upgrade.server";
import { forgiveAttempt, hit, signInPerAccount, signInPerAddress } from "~/platform/rate-limit.server";
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

export function refusalMessage(refusal: AuthRefusal | null, fallback: string = MESSAGES.authDefault): string {
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

/** The cookies that end this browser's session once its account is gone (the library clears its own). */
export async function clearedSessionCookies(request: Request): Promise<string[]> {
  try {
    const auth = await getAuth();
    const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return headers.getSetCookie();
  } catch (error) {
    // The session row is already gone: the cookie names nothing, and the library refuses to sign it out.
    logger.info({ err: error }, "clearing a deleted account's session cookie was refused");
    return [];
  }
}
