/*
 * What the letter forms say, and their limits: kept apart from the forms' schemas
 * (letters.form.ts) so the pages that show them send no Zod to the browser.
 */

/** Messages of the letter box and the staff's letter queues. */
export const LETTER_MESSAGES = {
  notFound: "That letter is not there. It may not be yours, or not delivered yet.",
  notHeld: "That letter has already been released.",
  notWaiting: "That letter has already been answered.",
  released: "The letter was released into its recipient's letter box.",
  answered: "Your answer was delivered to the writer's letter box.",
  writerGone: "The writer of this letter has left the club, so a reply cannot reach them.",
} as const;

/** The longest letter, in characters. */
export const LETTER_BODY_MAX = 10_000;
