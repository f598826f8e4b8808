import { and, eq, inArray } from "drizzle-orm";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { clubMessageRecipients, clubMessages, profiles } from "~/platform/db/schema";
import { deliverEmail } from "~/platform/mail/mailer.server";
import { GiveUp, type Deliverer, type EmailMessage } from "~/platform/outbox/outbox.server";
import { messageCopy, unsubscribeHeaders } from "./message-email.server";

/** Why a copy was not sent, as the managers' record gives it. */
export const COPY_REASONS = {
  interrupted:
    "The site stopped while this copy was with the mail server: it may have been sent, so it is not sent again.",
  suspended: "The account was suspended before the copy went out.",
} as const;

/** When the next copy may go: the lane keeps MESSAGES_PER_MINUTE (one process's lane sends one at a time). */
let nextSlot = 0;

async function waitForSlot(): Promise<void> {
  const gap = 60_000 / config().messages.perMinute;
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + gap;
  if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
}

/**
 * Sends one member's copy of a managers' message (the outbox's "club-message" lane). The copy is
 * marked "sending", and that is committed, before the mail server is asked: an attempt that finds
 * it still "sending" follows a process that stopped mid-send (kill -9, a power cut), and marks it
 * "interrupted" instead of sending a second copy. A temporary failure puts it back to "queued" for
 * the outbox's retry; a permanent one fails it with the mail server's reason.
 */
export const deliverClubMessage: Deliverer = async (row) => {
  const { recipientId } = row.payload as { recipientId: string };
  const db = await database();
  const [claimed] = await db
    .update(clubMessageRecipients)
    .set({ status: "sending" })
    // A failed copy too: a manager's Retry on the Outbox page sends it again.
    .where(and(eq(clubMessageRecipients.id, recipientId), inArray(clubMessageRecipients.status, ["queued", "failed"])))
    .returning({ id: clubMessageRecipients.id });
  if (!claimed) {
    await db
      .update(clubMessageRecipients)
      .set({ status: "interrupted", reason: COPY_REASONS.interrupted })
      .where(and(eq(clubMessageRecipients.id, recipientId), eq(clubMessageRecipients.status, "sending")));
    // Sent, left out, failed or interrupted already, or the member's account is gone: nothing to send.
    return;
  }
  const [copy] = await db
    .select({
      subject: clubMessages.subject,
      body: clubMessages.body,
      choice: clubMessages.choice,
      member: { id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName },
      email: profiles.email,
      banned: profiles.banned,
    })
    .from(clubMessageRecipients)
    .innerJoin(clubMessages, eq(clubMessages.id, clubMessageRecipients.messageId))
    .innerJoin(profiles, eq(profiles.id, clubMessageRecipients.userId))
    .where(eq(clubMessageRecipients.id, recipientId));
  if (!copy) return; // Deleted since the claim: the copy went with the account.
  const settle = (status: "queued" | "sent" | "failed" | "left-out", reason: string | null) =>
    db
      .update(clubMessageRecipients)
      .set({ status, reason, sentAt: status === "sent" ? new Date() : null })
      .where(eq(clubMessageRecipients.id, recipientId));
  if (copy.banned) {
    await settle("left-out", COPY_REASONS.suspended);
    return;
  }
  const email = await messageCopy(copy, copy.member);
  const message: EmailMessage = {
    to: copy.email,
    subject: email.subject,
    text: email.text,
    html: email.html,
    headers: unsubscribeHeaders(email.unsubscribeUrl),
  };
  await waitForSlot();
  try {
    await deliverEmail({ ...row, payload: message });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await settle(error instanceof GiveUp ? "failed" : "queued", reason);
    throw error;
  }
  await settle("sent", null);
};
