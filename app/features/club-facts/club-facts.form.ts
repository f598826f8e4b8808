import { z } from "zod";
import { FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";

/** What each of the club's facts holds, checked before any version of it is saved. */

export const FAQ_QUESTION_MAX = 200;
export const FAQ_ENTRIES_MAX = 100;

export const CLUB_FACT_MESSAGES = {
  question: `Write the question, up to ${FAQ_QUESTION_MAX} characters.`,
  answer: `Write the answer, up to ${FORMATTED_TEXT_MAX.toLocaleString("en-US")} characters.`,
  welcome: `Write the welcome, up to ${FORMATTED_TEXT_MAX.toLocaleString("en-US")} characters.`,
  tooMany: `The FAQ holds at most ${FAQ_ENTRIES_MAX} questions.`,
  changedMeanwhile:
    "Someone else saved a change while you were editing. Their version is shown below: make your change again.",
  noSuchVersion: "That version is not in the history.",
} as const;

/** One question of the FAQ; its id names it in links (`/#faq-<id>`) and stays when it is reworded. */
export const FaqEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,60}$/),
  question: z.string().trim().min(1, CLUB_FACT_MESSAGES.question).max(FAQ_QUESTION_MAX, CLUB_FACT_MESSAGES.question),
  /** Formatted text (lib/formatted-text.server.ts). */
  answer: z.string().trim().min(1, CLUB_FACT_MESSAGES.answer).max(FORMATTED_TEXT_MAX, CLUB_FACT_MESSAGES.answer),
});
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

export const FaqSchema = z.array(FaqEntrySchema).max(FAQ_ENTRIES_MAX, CLUB_FACT_MESSAGES.tooMany);

/** The home page's welcome story, formatted text (lib/formatted-text.server.ts). */
export const WelcomeSchema = z
  .string()
  .trim()
  .min(1, CLUB_FACT_MESSAGES.welcome)
  .max(FORMATTED_TEXT_MAX, CLUB_FACT_MESSAGES.welcome);
