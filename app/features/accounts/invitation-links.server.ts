import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { INVITATION_LINK_DAYS } from "~/identity/link-lifetimes";
import type { Database } from "~/platform/db/client.server";
import { invitationLinks } from "~/platform/db/schema";

/**
 * A manager may send an invitation again (the first email lost, or sent to a mistyped address
 * and corrected): the newer link replaces the older ones, which then open on a page saying so,
 * so an old email found later in someone's mailbox sets no password. The tokens are the auth
 * library's reset tokens, valid by its own check for INVITATION_LINK_DAYS; this record only
 * says which of them a newer invitation replaced. Reset links a member asks for themselves, and
 * hand-over links, are not invitations and are not recorded.
 */

const tokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Records a just-made invitation link as the member's only working one. */
export async function recordInvitationLink(db: Database, memberId: string, token: string): Promise<void> {
  const lifetimeOver = new Date(Date.now() - INVITATION_LINK_DAYS * 24 * 3600_000);
  await db.transaction(async (tx) => {
    await tx
      .update(invitationLinks)
      .set({ replacedAt: new Date() })
      .where(and(eq(invitationLinks.memberId, memberId), isNull(invitationLinks.replacedAt)));
    await tx.insert(invitationLinks).values({ tokenHash: tokenHash(token), memberId });
    // Links past their lifetime no longer work anyway: nothing to keep them for. A replaced link's
    // row is kept until then even after the newest link is used, since the library would still take it.
    await tx.delete(invitationLinks).where(lt(invitationLinks.createdAt, lifetimeOver));
  });
}

/** True when `token` is an invitation link a newer invitation to the same member replaced. */
export async function invitationLinkReplaced(db: Database, token: string): Promise<boolean> {
  const [row] = await db
    .select({ replacedAt: invitationLinks.replacedAt })
    .from(invitationLinks)
    .where(eq(invitationLinks.tokenHash, tokenHash(token)));
  return Boolean(row?.replacedAt);
}
