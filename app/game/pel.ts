/**
 * The post-event letter's built-in questions (docs/product.md#post-event-letters), in order: the
 * starting list of the club's questions (features/club-facts/questions), which managers change at
 * `/tools/club/pel-questions`, and the wording every letter written before then was asked with
 * (migration 0027, the old site's import). The form asks the club's current list, never this one.
 */
export const PEL_QUESTIONS = [
  { key: "scariness", label: "How scary was the weekend for you, and which moments frightened you most?" },
  {
    key: "favoriteMoments",
    label: "What were your favourite moments?",
    hint: "A short, anonymous highlight of this answer may be shared with the community.",
  },
  { key: "enjoyment", label: "How much did you enjoy the event overall, and why?" },
  { key: "notableNpcs", label: "Which cast characters (NPCs) stood out for you, and why?" },
  { key: "notablePcs", label: "Which other players' characters stood out for you, and why?" },
  { key: "improvements", label: "What could we do better next time?" },
  { key: "activities", label: "What did your character spend the weekend doing?" },
  { key: "goals", label: "What does your character want to do next?" },
  { key: "jobs", label: "How did your character's trade go? What did they make, sell or need?" },
  { key: "drugs", label: "Did your character take any tonics, remedies or stranger substances? What happened?" },
  { key: "followUp", label: "Is there anything you want staff to follow up on, in or out of character?" },
] as const;

/** The longest answer a letter keeps. */
export const PEL_ANSWER_MAX = 5_000;

/**
 * The question whose answer is shared, anonymously, with the community's Discord channel (its
 * hint says so): the favourite moments, while the club asks it.
 */
export const PEL_HIGHLIGHT_KEY = "favoriteMoments";

/**
 * How long after an event's weekend the events page reminds a member who attended and sent no
 * post-event letter (there is no deadline, docs/product.md#post-event-letters; the form takes one at any time after).
 */
export const PEL_REMINDER_DAYS = 30;
