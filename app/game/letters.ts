/**
 * Where a letter is on its way (the `letters.status` column):
 * - `held`: to a player's character, waiting for staff to release it (LETTERS_NEED_RELEASE);
 * - `delivered`: in the recipient's letter box;
 * - `to_staff`: to someone who is no player's character (an NPC), waiting for staff to answer as them;
 * - `answered`: such a letter, answered;
 * - `filed`: written before letters were delivered (or imported from the old site): staff read it, nobody else.
 */
export const LETTER_STATUSES = ["held", "delivered", "to_staff", "answered", "filed"] as const;
export type LetterStatus = (typeof LETTER_STATUSES)[number];

/** What the writer of a letter is told of it, in their letter box. */
export const LETTER_STATUS_FOR_WRITER: Record<LetterStatus, string> = {
  held: "Waiting for the post",
  delivered: "Delivered",
  to_staff: "Sent",
  answered: "Answered",
  filed: "Sent",
};

/** What staff see of a letter's state on /view-letters. */
export const LETTER_STATUS_FOR_STAFF: Record<LetterStatus, string> = {
  held: "Waiting for release",
  delivered: "Delivered",
  to_staff: "To an NPC: waiting for an answer",
  answered: "To an NPC: answered",
  filed: "Filed",
};

/** How a letter without an in-character signature (its writer had no character) is signed. */
export const UNSIGNED = "Unsigned";

/** Where a new letter (or reply) goes: see LETTER_STATUSES. */
export type LetterDelivery = Extract<LetterStatus, "held" | "delivered" | "to_staff">;

/** Where the letter went, as its writer is told (a player's character, or staff for anyone else). */
export function deliveryNote(delivery: LetterDelivery | undefined, recipient: string | undefined): string {
  if (delivery === "delivered") return `It has arrived in ${recipient}'s letter box.`;
  if (delivery === "held") return `It will arrive in ${recipient}'s letter box once the club's staff release it.`;
  if (delivery === "to_staff")
    return `${recipient} is no player's character, so the club's staff will answer for them. Their answer will arrive in your letter box.`;
  return "";
}
