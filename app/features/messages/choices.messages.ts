/*
 * What a member reads about the managers' messages: their choices on the profile, the
 * unsubscribe page and their Notices. Kept apart from the server modules so the pages that show
 * them carry only these words to the browser.
 */
import type { MessageChoice } from "~/game/messages";

/** Each choice as the profile offers it: its box's label and what it covers. */
export const CHOICE_OPTIONS: Record<MessageChoice, { label: string; explanation: string }> = {
  news: {
    label: "Club news",
    explanation: "Messages the managers send to all members, or to all players, cast or applicants.",
  },
  events: {
    label: "Messages about events I hold a place at",
    explanation: "Messages to those with a place at one event, or on its attendance list: plans, kit, reminders.",
  },
};

/** A choice in a sentence: "You will no longer receive club news." */
const CHOICE_IN_WORDS: Record<MessageChoice, string> = {
  news: "club news",
  events: "messages about events you hold a place at",
};

/** What is emailed whatever the member chooses: it is about their own account, place or payment. */
export const ALWAYS_SENT = [
  "Receipts and refunds for your own tickets",
  "The managers' messages that an event you hold a place at is moved or cancelled",
  "Sign-in codes and account security: password resets, a new email address, second factors",
] as const;

export const CHOICES_MESSAGES = {
  heading: "Messages from the club",
  intro: "Choose which of the managers' messages are emailed to you.",
  legend: "Email me:",
  kept: "Every message the managers send you is kept under",
  notices: "Notices",
  save: "Save my choices",
  saving: "Saving…",
  saved: "Changes saved successfully!",
  failed: "Your choices could not be saved. Please try again.",
  alwaysHeading: "Emails you always receive",
  alwaysIntro: "These are about your own account, place or payment, so they cannot be switched off:",
  alwaysMark: "Always sent",
} as const;

export const UNSUBSCRIBE_MESSAGES = {
  question: (choice: MessageChoice) => `Unsubscribe from ${choice === "news" ? "club news" : "event messages"}?`,
  explanation: (choice: MessageChoice) =>
    `You will no longer be emailed ${CHOICE_IN_WORDS[choice]}. You can still read them under Notices when you sign in.`,
  button: "Unsubscribe",
  busy: "Unsubscribing…",
  done: (choice: MessageChoice) =>
    `You will no longer receive ${CHOICE_IN_WORDS[choice]}. You can change this on your profile.`,
  doneHeading: "Unsubscribed",
  invalidHeading: "Unsubscribe",
  invalid: "This unsubscribe link is not valid. Sign in and choose what you receive on your profile.",
  failed: "Unsubscribing failed. Please try again in a moment.",
  toProfile: "Choose what you receive",
} as const;

export const NOTICES_MESSAGES = {
  heading: "Notices",
  intro: "Every message the club's managers sent you, newest first, as it was written to you.",
  empty: "No messages from the club yet.",
  loadFailed: "Failed to load your notices. Please try again.",
  choices: "Choose what is emailed to you",
  notEmailed: (choice: MessageChoice) => `Not emailed: you chose not to receive ${CHOICE_IN_WORDS[choice]}.`,
  notEmailedSuspended: "Not emailed: the account was suspended.",
  emailed: (at: string) => `Emailed ${at}`,
  sending: "Being emailed",
  failed: "The email could not be delivered.",
  interrupted: "The email may not have arrived.",
  to: (group: string) => `To: ${group}`,
  read: "Read the message",
} as const;
