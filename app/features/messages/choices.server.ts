// A member's choices of the managers' messages: on their profile, and by the unsubscribe link
// each message carries (RFC 8058's one-click post, or the link's own page), without signing in.
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import { MESSAGE_CHOICES, type MessageChoice } from "~/game/messages";
import { isMemberId } from "~/lib/ids";
import { audit } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import type { FormValues } from "~/web/forms/kernel";
import { CHOICES_MESSAGES } from "./choices.messages";
import { isUnsubscribeToken } from "./message-email.server";

/** Whether the member receives each kind of message by email. */
export type MessageChoices = Record<MessageChoice, boolean>;

/** The profile's column for each choice. */
const COLUMNS = { news: profiles.newsEmails, events: profiles.eventEmails } as const;
const FIELDS = { news: "newsEmails", events: "eventEmails" } as const;

export async function messageChoices(userId: string): Promise<MessageChoices> {
  const [row] = await (
    await database()
  )
    .select({ news: profiles.newsEmails, events: profiles.eventEmails })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row ?? { news: true, events: true };
}

/** What the profile shows after the choices' Save. */
export type ChoicesAnswer = { intent: "choices"; saved?: boolean; message?: string; at?: number };

/**
 * The profile's choices form: a ticked box is sent as "on", an unticked one not at all, so a
 * choice missing from the form is off. Audited, as an unsubscribe link's change is, so a manager
 * asked "why did I not get it" can see when the member chose.
 */
export async function saveMessageChoices(
  user: { id: string },
  values: FormValues,
): Promise<ActionAnswer<ChoicesAnswer>> {
  const chosen: MessageChoices = { news: values.news === "on", events: values.events === "on" };
  return failSafely<ChoicesAnswer>(
    "saving a member's message choices",
    { intent: "choices", message: CHOICES_MESSAGES.failed },
    async () => {
      const db = await database();
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ news: profiles.newsEmails, events: profiles.eventEmails })
          .from(profiles)
          .where(eq(profiles.id, user.id))
          .for("update");
        await tx
          .update(profiles)
          .set({ newsEmails: chosen.news, eventEmails: chosen.events })
          .where(eq(profiles.id, user.id));
        for (const choice of MESSAGE_CHOICES) {
          if (before && before[choice] === chosen[choice]) continue;
          await audit(tx, {
            actorId: user.id,
            action: "message.choices",
            subjectId: user.id,
            details: { choice, receive: chosen[choice], by: "profile" },
          });
        }
      });
      return data({ intent: "choices" as const, saved: true, at: Date.now() });
    },
  );
}

/** An unsubscribe link's member, choice and token, as its address gives them. */
export type UnsubscribeLink = { member: string; choice: MessageChoice; token: string };

/**
 * The link's member and choice when its token is theirs and the member exists; null otherwise.
 * The token is checked before the member is looked up, and every refusal is the same, so the
 * answer never tells whether an account exists.
 */
export async function validUnsubscribeLink(url: URL): Promise<UnsubscribeLink | null> {
  const member = url.searchParams.get("member");
  const choice = url.searchParams.get("choice");
  const token = url.searchParams.get("token");
  if (!isMemberId(member) || !(MESSAGE_CHOICES as readonly (string | null)[]).includes(choice) || !token) return null;
  const link = { member, choice: choice as MessageChoice, token };
  if (!(await isUnsubscribeToken(link.member, link.choice, link.token))) return null;
  const [found] = await (
    await database()
  )
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.id, link.member));
  return found ? link : null;
}

/**
 * Switches the link's choice off for its member alone. Only a change is audited: a mail
 * program's post and the page's button, or a second press, leave one entry between them.
 */
export async function unsubscribe(link: UnsubscribeLink): Promise<void> {
  const db = await database();
  await db.transaction(async (tx) => {
    const column = COLUMNS[link.choice];
    const [changed] = await tx
      .update(profiles)
      .set({ [FIELDS[link.choice]]: false })
      .where(and(eq(profiles.id, link.member), eq(column, true)))
      .returning({ id: profiles.id });
    if (!changed) return;
    await audit(tx, {
      actorId: null,
      action: "message.choices",
      subjectId: link.member,
      details: { choice: link.choice, by: "unsubscribe link" },
    });
  });
}
