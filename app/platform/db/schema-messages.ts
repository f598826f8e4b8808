import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, oneOf } from "./columns";
import { events } from "./schema-game";
import { ownerId, profiles } from "./schema-members";
import { AUDIENCE_KINDS, MESSAGE_CHOICES, RECIPIENT_STATUSES } from "~/game/messages";

/** A message a manager sent to a group of members, by email (and to the club's Discord if chosen). */
export const clubMessages = pgTable(
  "club_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The compose form's one-time key: a second press, or a retried post, finds the message already sent. */
    submissionKey: uuid("submission_key").notNull(),
    subject: text("subject").notNull(),
    /** Formatted text (the site's safe subset) with fields such as {first name}. */
    body: text("body").notNull(),
    audience: text("audience", { enum: AUDIENCE_KINDS }).notNull(),
    /** The event of an event's group; events are cancelled, never deleted, while rows refer to them. */
    eventId: uuid("event_id").references(() => events.id, { onDelete: "restrict" }),
    /** The group as the record names it, in the words of the moment it was sent. */
    audienceLabel: text("audience_label").notNull(),
    /** Which of a member's choices lets them leave it out. */
    choice: text("choice", { enum: MESSAGE_CHOICES }).notNull(),
    /**
     * About an event being moved or cancelled: it reaches every member of the event's group,
     * whatever they chose, as a member must hear of it (their choices leave nobody out).
     */
    mustReach: boolean("must_reach").notNull().default(false),
    /** Also posted to the club's Discord channel. */
    discord: boolean("discord").notNull().default(false),
    /** Who sent it; null once their account is gone. */
    sentBy: text("sent_by").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("club_messages_submission_key_unique").on(t.submissionKey),
    index("club_messages_created_at_idx").on(t.createdAt),
    index("club_messages_event_id_idx").on(t.eventId),
    index("club_messages_sent_by_idx").on(t.sentBy),
    check("club_messages_audience_check", oneOf(t.audience, AUDIENCE_KINDS)),
    check("club_messages_choice_check", oneOf(t.choice, MESSAGE_CHOICES)),
  ],
);

/**
 * Each member a message was for: their copy's state, and the member's Notices (what was sent to
 * them, read on the site). A deleted account's rows go with it.
 */
export const clubMessageRecipients = pgTable(
  "club_message_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => clubMessages.id, { onDelete: "cascade" }),
    userId: ownerId(),
    status: text("status", { enum: RECIPIENT_STATUSES }).notNull().default("queued"),
    /** Why the copy failed, was interrupted, or was left out. */
    reason: text("reason"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("club_message_recipients_message_user_unique").on(t.messageId, t.userId),
    index("club_message_recipients_user_id_idx").on(t.userId, t.createdAt),
    check("club_message_recipients_status_check", oneOf(t.status, RECIPIENT_STATUSES)),
  ],
);
