/*
 * A character's limits and the message for a job outside the faction: kept apart from the
 * character form's schema so the pages that show them send no Zod to the browser.
 */

export const BACKSTORY_MAX = 20_000;
/** A character's name, wherever one is written: the character, a post-event letter, a letter's recipient. */
export const CHARACTER_NAME_MAX = 100;
export const INVALID_JOB = "That job is not open to your faction. Please choose another.";
export const RETIRED_FACTION = "That faction is no longer offered. Please choose another.";
export const RETIRED_JOB = "That job is no longer offered. Please choose another.";
