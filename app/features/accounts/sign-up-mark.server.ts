import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "~/identity/auth.server";

/**
 * The mark a browser keeps of the account it made at sign-up (sign-up-browser.server.ts): the
 * account's id with an HMAC of it under the site's secret, so it cannot be made for another.
 */
async function signature(userId: string): Promise<string> {
  return createHmac("sha256", await authSecret())
    .update(`signed-up-here\n${userId}`)
    .digest("base64url");
}

export async function signUpMark(userId: string): Promise<string> {
  return `${userId}.${await signature(userId)}`;
}

/** Whether `mark` was made for the account `userId`. */
export async function isSignUpMarkOf(mark: string, userId: string): Promise<boolean> {
  const [id, sig] = mark.split(".");
  if (id !== userId || !sig) return false;
  const expected = Buffer.from(await signature(userId));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
