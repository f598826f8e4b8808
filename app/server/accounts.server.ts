import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { MESSAGES, SITE_MESSAGES } from "~/forms/messages";
import type { Role } from "~/game/roles";
import { getAuth } from "./auth.server";
import { config } from "./config.server";
import { database } from "./db/client.server";
import { profiles } from "./db/schema";
import { logger } from "./logger.server";
import { hit, LIMITS } from "./rate-limit.server";

export type AuthOutcome<T = object> = ({ ok: true } & T) | { ok: false; status: number; message: string };

/**
 * The auth library's own errors, recognised by shape: importing its error class would
 * load the whole library at start-up, which auth.server.ts defers to first use.
 */
type ServiceError = Error & { statusCode: number; body?: { message?: string; code?: string } };
function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && error.name === "APIError" && typeof (error as { statusCode?: unknown }).statusCode === "number";
}

function serviceMessage(error: unknown, fallback: string = MESSAGES.authDefault): string {
  if (isServiceError(error)) return error.body?.message || error.message || fallback;
  return fallback;
}

export async function emailIsRegistered(email: string): Promise<boolean> {
  const db = await database();
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(sql`lower(${profiles.email})`, email.toLowerCase()));
  return row !== undefined;
}

type NewAccount = { firstName: string; lastName: string; email: string; password: string };

/** Sign-up from the web: at most one per client address every SIGNUP_THROTTLE_MS (11 s). */
export async function signUp(input: NewAccount, clientAddress: string): Promise<AuthOutcome> {
  const throttle = await hit(`signup:${clientAddress}`, { max: 1, windowMs: config().signupThrottleMs });
  if (!throttle.allowed) return { ok: false, status: 429, message: MESSAGES.signupThrottle };
  return createAccount(input);
}

/**
 * Creates the account and its profile (one row of the profiles table, with the
 * password in accounts) in one transaction: both exist, or neither does.
 * New accounts are applicants; the role is never taken from the input.
 */
export async function createAccount(input: NewAccount): Promise<AuthOutcome> {
  if (await emailIsRegistered(input.email)) return { ok: false, status: 409, message: SITE_MESSAGES.emailTaken };
  const auth = await getAuth();
  try {
    await auth.api.signUpEmail({
      body: {
        name: `${input.firstName} ${input.lastName}`,
        email: input.email,
        password: input.password,
        firstName: input.firstName,
        lastName: input.lastName,
      },
    });
    return { ok: true };
  } catch (error) {
    logger.warn({ err: isServiceError(error) ? error.message : error }, "sign-up failed");
    if (isServiceError(error) && error.body?.code === "FAILED_TO_CREATE_USER") {
      return { ok: false, status: 500, message: MESSAGES.profileFailed };
    }
    if (isServiceError(error)) return { ok: false, status: error.statusCode || 400, message: serviceMessage(error) };
    return { ok: false, status: 500, message: MESSAGES.profileFailed };
  }
}

/** Signs in and returns the session cookie to set. Limited per address and per account. */
export async function signIn(
  input: { email: string; password: string },
  request: Request,
  clientAddress: string,
): Promise<AuthOutcome<{ setCookies: string[] }>> {
  const [byAddress, byAccount] = await Promise.all([
    hit(`signin:address:${clientAddress}`, LIMITS.signInPerAddress),
    hit(`signin:account:${input.email}`, LIMITS.signInPerAccount),
  ]);
  if (!byAddress.allowed || !byAccount.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManySignIns };
  const auth = await getAuth();
  try {
    const headers = new Headers({ "user-agent": request.headers.get("user-agent") ?? "", "x-forwarded-for": clientAddress });
    const result = await auth.api.signInEmail({ body: { email: input.email, password: input.password }, headers, returnHeaders: true });
    return { ok: true, setCookies: result.headers.getSetCookie() };
  } catch (error) {
    if (isServiceError(error)) return { ok: false, status: error.statusCode === 500 ? 500 : 401, message: serviceMessage(error) };
    logger.error({ err: error }, "sign-in failed");
    return { ok: false, status: 500, message: MESSAGES.authDefault };
  }
}

/** Ends the session on the server and returns the cookies that clear it in the browser. */
export async function signOut(request: Request): Promise<string[]> {
  const auth = await getAuth();
  try {
    const result = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return result.headers.getSetCookie();
  } catch {
    // No session to end: still clear the browser's cookie.
    return [`hopewell.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`];
  }
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

/** True when `token` is a live password-reset token. */
export async function resetTokenIsValid(token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const auth = await getAuth();
  const context = await auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return Boolean(verification && new Date(verification.expiresAt) > new Date());
}

/** Sets the new password, uses up the token and ends the member's sessions everywhere. */
export async function resetPassword(token: string, password: string): Promise<AuthOutcome> {
  const auth = await getAuth();
  try {
    await auth.api.resetPassword({ body: { token, newPassword: password } });
    return { ok: true };
  } catch (error) {
    if (isServiceError(error) && error.statusCode < 500) return { ok: false, status: 400, message: SITE_MESSAGES.resetLinkInvalid };
    logger.error({ err: error }, "password reset failed");
    return { ok: false, status: 500, message: serviceMessage(error, MESSAGES.resetFailed) };
  }
}

/** Sets a member's role (administration and, later, the managers' tools). */
export async function setRole(email: string, role: Role): Promise<boolean> {
  const db = await database();
  const updated = await db
    .update(profiles)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()))
    .returning({ id: profiles.id });
  return updated.length === 1;
}
