import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";

/**
 * A suspended member (profiles.banned, set by a manager: member-admin.server.ts) cannot sign
 * in by any way. The one place this is enforced is the auth library's hook before a session
 * is created (auth.server.ts): a password, an emailed code, a second factor, a passkey and
 * Discord all end in a new session, so each is refused there with this error code, which the
 * sign-in pages turn into ACCOUNT_SUSPENDED_MESSAGE. The member's existing sessions are ended
 * when they are suspended.
 */
export const ACCOUNT_SUSPENDED_CODE = "ACCOUNT_SUSPENDED";

/** What every way of signing in answers a suspended member. */
export const ACCOUNT_SUSPENDED_MESSAGE = "This account is suspended. Contact the club's managers.";

export async function isSuspended(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ banned: profiles.banned }).from(profiles).where(eq(profiles.id, userId));
  return row?.banned === true;
}

/** Throws the library's own refusal (its public APIError) when `userId` is suspended. */
export async function refuseSuspendedMember(db: Database, userId: string): Promise<void> {
  if (!(await isSuspended(db, userId))) return;
  const { APIError } = await import("better-auth/api");
  throw new APIError("FORBIDDEN", { code: ACCOUNT_SUSPENDED_CODE, message: ACCOUNT_SUSPENDED_MESSAGE });
}
