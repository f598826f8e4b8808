import { config } from "~/platform/config.server";
import { isSignUpMarkOf, signUpMark } from "./sign-up-mark.server";

/**
 * Which account this browser made: a cookie set by a successful sign-up, signed with the site's
 * secret. It lets the first sign-in by emailed code tell the member who made the account a
 * minute ago from someone else. The auth library, seeing an address not yet proven, removes the
 * account's password (and every other way in) on that first sign-in, because whoever signed up
 * may not own the mailbox; when the code is given in the browser that signed up, both are the
 * same person, and the ways in are kept (email-code.server.ts,
 * docs/decisions/0018-emailed-code-after-sign-up.md).
 *
 * Its name does not begin with the auth library's prefix, so it does not mark the browser as
 * signed in (auth-cookie.server.ts), and it is sent only to the sign-in pages.
 */
const COOKIE_NAME = "hopewell_signed_up";
const COOKIE_PATH = "/auth";
/** Long enough for a member who signs up and comes back to sign in by code within the month. */
const MAX_AGE_S = 30 * 24 * 60 * 60;

/** The Set-Cookie header for a browser that has just made the account `userId`. */
export async function signedUpHereCookie(userId: string): Promise<string> {
  const secure = config().appUrl?.startsWith("https:") ? "; Secure" : "";
  return `${COOKIE_NAME}=${await signUpMark(userId)}; Path=${COOKIE_PATH}; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}

/** Whether `request` comes from the browser that made the account `userId`. */
export async function madeInThisBrowser(request: Request, userId: string): Promise<boolean> {
  const cookie = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${COOKIE_NAME}=`));
  return cookie !== undefined && isSignUpMarkOf(cookie.slice(COOKIE_NAME.length + 1), userId);
}
