import { and, eq } from "drizzle-orm";
import { DELETION_MESSAGES } from "./account-deletion.form";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { authRefusal, getAuth } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import { accounts } from "~/platform/db/schema";
import { hit, signInPerAccount } from "~/platform/rate-limit.server";

// Proving the signed-in member is at the keyboard before something that cannot be undone
// (deleting their account) or that hands their account elsewhere (changing its email address).

/** A session begun this recently counts as proof for a member without a password. */
const FRESH_SESSION_MS = 10 * 60_000;

/** Whether the member has a password (else they re-authenticate by signing in anew). */
export async function hasPassword(userId: string): Promise<boolean> {
  const db = await database();
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return rows.length > 0;
}

export type ReauthOutcome = { ok: true } | { ok: false; status: number; message: string; field?: "currentPassword" };

/**
 * Proves the signed-in member is at the keyboard: their password (counted against the
 * account's sign-in limit), or, for a member who has none (Discord or emailed codes only),
 * a session begun within the last 10 minutes.
 */
export async function reauthenticate(
  request: Request,
  member: { id: string; email: string },
  password: string,
): Promise<ReauthOutcome> {
  const auth = await getAuth();
  if (await hasPassword(member.id)) {
    if (!password)
      return { ok: false, status: 400, message: DELETION_MESSAGES.passwordRequired, field: "currentPassword" };
    const byAccount = await hit(`signin:account:${member.email.toLowerCase()}`, signInPerAccount());
    if (!byAccount.allowed) return { ok: false, status: 429, message: SITE_MESSAGES.tooManyPasswordChanges };
    try {
      await auth.api.verifyPassword({ body: { password }, headers: request.headers });
      return { ok: true };
    } catch (error) {
      const refusal = await authRefusal(error);
      if (refusal?.code === "INVALID_PASSWORD")
        return { ok: false, status: 400, message: SITE_MESSAGES.wrongCurrentPassword, field: "currentPassword" };
      throw error;
    }
  }
  const session = await auth.api.getSession({ headers: request.headers });
  const began = session ? new Date(session.session.createdAt).getTime() : 0;
  if (Date.now() - began <= FRESH_SESSION_MS) return { ok: true };
  return { ok: false, status: 403, message: DELETION_MESSAGES.notFresh };
}
