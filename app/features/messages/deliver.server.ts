import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, exists, inArray } from "drizzle-orm";
import { config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";
import { DISCARDED_COPY_REASON } from "~/platform/outbox/outbox-view.server";
import { database } from "~/platform/db/client.server";
import { clubMessageRecipients, clubMessages, outbox, profiles } from "~/platform/db/schema";
import { answeredByServer, deliverEmail } from "~/platform/mail/mailer.server";
import { GiveUp, GivenBack, MAX_ATTEMPTS, type Deliverer, type EmailMessage } from "~/platform/outbox/outbox.server";
import { messageCopy, unsubscribeHeaders } from "./message-email.server";

/** Why a copy was not sent, as the managers' record gives it. */
export const COPY_REASONS = {
  interrupted:
    "The site stopped while this copy was with the mail server: it may have been sent, so it is not sent again.",
  unanswered:
    "The mail server stopped answering while this copy was sent to it: it may have been delivered, so it is not sent again.",
  suspended: "The account was suspended before the copy went out.",
} as const;

/** When the last copy's turn came: the next may go MESSAGES_PER_MINUTE's gap after it (one process's lane sends one at a time). */
let lastSlot = -Infinity;

/** Forgets the last copy's turn, as a process starting afresh has it (the tests, between files and where pacing is the subject). */
export function forgetMessagePacing(): void {
  lastSlot = -Infinity;
}

/** Waits for the copy's turn; a worker that stops meanwhile (`signal`) has the copy given back untried. */
async function waitForSlot(signal: AbortSignal | undefined): Promise<void> {
  const before = lastSlot;
  const now = Date.now();
  const at = Math.max(now, lastSlot + 60_000 / config().messages.perMinute);
  lastSlot = at;
  if (at > now) await sleep(at - now, undefined, { signal }).catch(() => undefined);
  if (signal?.aborted) {
    lastSlot = before; // The turn was not used.
    throw new GivenBack("The site is stopping: the copy waits for the next start.");
  }
}

/**
 * Sends one member's copy of a managers' message (the outbox's "club-message" lane). The copy is
 * marked "sending", and that is committed, right before the mail server is asked: an attempt that
 * finds it still "sending" follows a process that stopped mid-send (kill -9, a power cut), and
 * marks it "interrupted" instead of sending a second copy. What can take time before that (the
 * copy's rendering, the wait for its slot) comes before the mark, so a process stopped there
 * leaves the copy "queued", sent after the restart. A server that took the whole copy and then
 * hung up or fell silent without answering may have delivered it: "interrupted" too. A temporary
 * failure puts it back to "queued" for the outbox's retry; a permanent one, or the outbox's last
 * try, fails it with the reason.
 */
export const deliverClubMessage: Deliverer = async (row, context) => {
  const { recipientId } = row.payload as { recipientId: string };
  const db = await database();
  const [copy] = await db
    .select({
      status: clubMessageRecipients.status,
      subject: clubMessages.subject,
      body: clubMessages.body,
      choice: clubMessages.choice,
      mustReach: clubMessages.mustReach,
      member: { id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName },
      email: profiles.email,
      banned: profiles.banned,
    })
    .from(clubMessageRecipients)
    .innerJoin(clubMessages, eq(clubMessages.id, clubMessageRecipients.messageId))
    .innerJoin(profiles, eq(profiles.id, clubMessageRecipients.userId))
    .where(eq(clubMessageRecipients.id, recipientId));
  if (!copy) return; // The member's account is gone, and the copy with it.
  const thisCopy = eq(clubMessageRecipients.id, recipientId);
  if (copy.status === "sending") {
    await db
      .update(clubMessageRecipients)
      .set({ status: "interrupted", reason: COPY_REASONS.interrupted })
      .where(and(thisCopy, eq(clubMessageRecipients.status, "sending")));
    return;
  }
  // Sent, left out or interrupted already: nothing to send. A failed copy is sent again (a manager's Retry on the Outbox page).
  if (copy.status !== "queued" && copy.status !== "failed") return;
  const sendable = and(thisCopy, inArray(clubMessageRecipients.status, ["queued", "failed"]));
  if (copy.banned) {
    await db.update(clubMessageRecipients).set({ status: "left-out", reason: COPY_REASONS.suspended }).where(sendable);
    return;
  }
  const email = await messageCopy(copy, copy.member);
  await waitForSlot(context?.signal);
  // Claimed only while its outbox row is still to be sent: a manager may have discarded it on
  // /outbox while it waited for its turn (the copy is then failed, and failed copies are otherwise
  // sendable, for a manager's Retry).
  const stillToSend = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "pending")));
  const stillPending = async () => (await stillToSend).length > 0;
  const [claimed] = await db
    .update(clubMessageRecipients)
    .set({ status: "sending" })
    .where(and(sendable, exists(stillToSend)))
    .returning({ id: clubMessageRecipients.id });
  if (!claimed) {
    // Discarded on /outbox while it waited: given back untried, so the worker leaves its row discarded.
    if (!(await stillPending())) throw new GivenBack("Discarded on the Outbox page before it was sent.");
    return; // Another attempt took it meanwhile.
  }
  const settle = (status: "queued" | "sent" | "failed" | "interrupted", reason: string | null) =>
    db
      .update(clubMessageRecipients)
      .set({ status, reason, sentAt: status === "sent" ? new Date() : null })
      .where(thisCopy);
  let handedOver = false;
  try {
    await deliverEmail(
      {
        ...row,
        payload: {
          to: copy.email,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: unsubscribeHeaders(email.unsubscribeUrl),
        } satisfies EmailMessage,
      },
      { handedOver: () => (handedOver = true) },
    );
  } catch (error) {
    // The server had said to send the copy (354) and was sent it, then hung up or fell silent
    // instead of answering: it may have been delivered, so it is not tried again (at most once,
    // as after a crash).
    if (handedOver && !answeredByServer(error)) {
      await settle("interrupted", COPY_REASONS.unanswered);
      logger.warn(
        { id: row.id, recipientId, error: error instanceof Error ? error.message : String(error) },
        "a message's copy went unanswered by the mail server: marked interrupted, not sent again",
      );
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    // On its last try the outbox gives the copy up, so the record says failed, not queued forever.
    const givenUp = error instanceof GiveUp || row.attempts + 1 >= MAX_ATTEMPTS;
    if (givenUp) await settle("failed", reason);
    // Discarded on /outbox while it was with the mail server: no retry will come, so not "queued".
    else if (!(await stillPending())) await settle("failed", DISCARDED_COPY_REASON);
    else await settle("queued", reason);
    throw error;
  }
  await settle("sent", null);
};
