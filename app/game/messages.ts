// The managers' messages to members (features/messages): the words the database and the forms share.

/**
 * The groups a manager writes to, by what the site knows of its members: every member, a role,
 * or what they did about an event (a paid place, the attendance list, no post-event letter after
 * attending, no approved costume photo before it).
 */
export const AUDIENCE_KINDS = [
  "all",
  "players",
  "cast",
  "applicants",
  "paid",
  "attendance",
  "no-pel",
  "no-costume",
] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

/**
 * What a member may switch off: club news (messages to a whole group of members) and event
 * messages (to those holding a place at, or listed for, one event).
 */
export const MESSAGE_CHOICES = ["news", "events"] as const;
export type MessageChoice = (typeof MESSAGE_CHOICES)[number];

/**
 * Where each recipient's copy stands. "sending" is written (and committed) before the mail server
 * is asked: a copy found still "sending" after a crash is "interrupted", never sent again, so no
 * member gets two. "left-out": the member switched this kind of message off.
 */
export const RECIPIENT_STATUSES = ["queued", "sending", "sent", "failed", "interrupted", "left-out"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
