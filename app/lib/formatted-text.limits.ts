/** What a form with a formatted-text field needs in the browser too (formatted-text.server.ts renders it). */

/** What the hint under such a field says, the same wherever one is. */
export const FORMATTED_TEXT_HINT =
  "Leave a blank line between paragraphs. *Emphasis*, **strong**, [a link](https://example.org) and lists (lines starting with - or 1.) are shown formatted.";

/** The most a formatted text may hold: a page of the club's, or a message to members. */
export const FORMATTED_TEXT_MAX = 20_000;
