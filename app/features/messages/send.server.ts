import { audit } from "~/platform/audit.server";
import { eq } from "drizzle-orm";
import { database, type Transaction } from "~/platform/db/client.server";
import { clubMessageRecipients, clubMessages, outbox } from "~/platform/db/schema";
import { queueDiscordPost } from "~/platform/discord/discord.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { audienceLabel, choiceOf, eventNamed, recipientsOf, type Recipient } from "./audiences.server";
import { messageCopy, unsubscribeHeaders, type Addressee } from "./message-email.server";
import { MESSAGES_MESSAGES, type Audience, type Compose } from "./messages.form";

/** Why a member's choices leave a message out, as the record gives it. */
export const LEFT_OUT_REASON = {
  news: "Chose not to receive club news",
  events: "Chose not to receive event messages",
} as const;

/** How many copies one insert writes: 500 members are two statements, not 500. */
const INSERT_BATCH = 250;

/** The group a form names, with its members: for the page's count and names before sending. */
export async function groupOf(audience: Audience & { mustReach?: boolean }) {
  const event = audience.eventId ? await eventNamed(audience.eventId) : undefined;
  if (audience.eventId && !event) return { ok: false as const, field: "eventId", message: MESSAGES_MESSAGES.event };
  const recipients = await recipientsOf(audience);
  return {
    ok: true as const,
    label: audienceLabel(audience.audience, event),
    recipients,
    sending: recipients.filter((recipient) => !recipient.leftOut).length,
  };
}

export type SendOutcome =
  | { outcome: "sent"; messageId: string; queued: number; leftOut: number }
  | { outcome: "already-sent"; messageId: string }
  | { outcome: "nobody" }
  | { outcome: "refused"; field: string; message: string };

/**
 * Sends a manager's message to its group: the message, a copy for each member (queued, or left out
 * by their choices), each queued copy's outbox row, the audit row and the Discord post are written
 * in one transaction, so a failure sends nothing and a second press with the form's key sends
 * nothing more. The copies go out in their own lane of the outbox (deliver.server.ts).
 */
export async function sendMessage(
  manager: { id: string },
  input: Compose & { submissionKey: string },
): Promise<SendOutcome> {
  const db = await database();
  return db
    .transaction(async (tx): Promise<SendOutcome> => {
      const event = input.eventId ? await eventNamed(input.eventId, tx) : undefined;
      if (input.eventId && !event) return { outcome: "refused", field: "eventId", message: MESSAGES_MESSAGES.event };
      const choice = choiceOf(input.audience);
      const label = audienceLabel(input.audience, event);
      const [message] = await tx
        .insert(clubMessages)
        .values({
          submissionKey: input.submissionKey,
          subject: input.subject,
          body: input.body,
          audience: input.audience,
          eventId: input.eventId,
          audienceLabel: label,
          choice,
          discord: input.discord,
          mustReach: input.mustReach,
          sentBy: manager.id,
        })
        .onConflictDoNothing({ target: clubMessages.submissionKey })
        .returning({ id: clubMessages.id });
      if (!message) {
        const [sent] = await tx
          .select({ id: clubMessages.id })
          .from(clubMessages)
          .where(eq(clubMessages.submissionKey, input.submissionKey));
        return { outcome: "already-sent", messageId: sent!.id } satisfies SendOutcome;
      }
      const recipients = await recipientsOf(input, tx);
      if (recipients.length === 0) throw new NobodyInGroup();
      const queued = await writeCopies(tx, message.id, recipients, choice);
      await audit(tx, {
        actorId: manager.id,
        action: "message.send",
        // The subject column names a member; a message is named in the details.
        details: {
          message: message.id,
          group: label,
          queued: queued.length,
          leftOut: recipients.length - queued.length,
          discord: input.discord,
        },
      });
      if (input.discord) await queueDiscordPost(tx, discordNotice(input));
      return {
        outcome: "sent",
        messageId: message.id,
        queued: queued.length,
        leftOut: recipients.length - queued.length,
      };
    })
    .catch((error: unknown) => {
      // An empty group takes the message back with it: nothing is recorded as sent to nobody.
      if (error instanceof NobodyInGroup) return { outcome: "nobody" } satisfies SendOutcome;
      throw error;
    });
}

class NobodyInGroup extends Error {}

/** Each member's copy, and an outbox row for each one to send; returns the queued copies' ids. */
async function writeCopies(
  tx: Transaction,
  messageId: string,
  recipients: Recipient[],
  choice: keyof typeof LEFT_OUT_REASON,
): Promise<string[]> {
  const queued: string[] = [];
  for (let start = 0; start < recipients.length; start += INSERT_BATCH) {
    const batch = recipients.slice(start, start + INSERT_BATCH);
    const copies = await tx
      .insert(clubMessageRecipients)
      .values(
        batch.map((recipient) => ({
          messageId,
          userId: recipient.id,
          status: recipient.leftOut ? ("left-out" as const) : ("queued" as const),
          reason: recipient.leftOut ? LEFT_OUT_REASON[choice] : null,
        })),
      )
      .returning({
        id: clubMessageRecipients.id,
        userId: clubMessageRecipients.userId,
        status: clubMessageRecipients.status,
      });
    const toSend = copies.filter((copy) => copy.status === "queued");
    if (toSend.length > 0) {
      await tx.insert(outbox).values(
        toSend.map((copy) => ({
          kind: "club-message" as const,
          // One member's copies go out in the order written; another's refusal holds none of them back.
          orderKey: `club-message:${copy.userId}`,
          payload: { recipientId: copy.id },
        })),
      );
    }
    queued.push(...toSend.map((copy) => copy.id));
  }
  return queued;
}

/**
 * The notice as the club's Discord channel shows it: the subject in bold, then the body as
 * written (Discord reads the same emphasis, links and lists), its fields addressed to everyone.
 */
function discordNotice(input: Pick<Compose, "subject" | "body">): string {
  const everyone: Addressee = { id: "", firstName: "friends", lastName: "" };
  const filled = (text: string) =>
    text.replace(/\{\s*first\s+name\s*\}/gi, everyone.firstName).replace(/\s?\{\s*last\s+name\s*\}/gi, "");
  return `**${filled(input.subject)}**\n\n${filled(input.body)}`;
}

/**
 * A copy of the message to the manager's own address, marked as a test, with the unsubscribe
 * headers a member's copy carries (pointing at the manager's own choice): nobody else receives it.
 */
export async function sendTest(
  manager: { id: string; email: string; firstName: string; lastName: string },
  input: Compose,
): Promise<void> {
  const copy = await messageCopy({ ...input, choice: choiceOf(input.audience) }, manager);
  const db = await database();
  await db.transaction(async (tx) => {
    await queueEmail(tx, {
      to: manager.email,
      subject: `[Test] ${copy.subject}`,
      text: copy.text,
      html: copy.html,
      headers: unsubscribeHeaders(copy.unsubscribeUrl),
    });
    await audit(tx, { actorId: manager.id, action: "message.test", details: { subject: input.subject } });
  });
}
