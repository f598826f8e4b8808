import { z } from "zod";
import { APPLICATION_ANSWER_MAX } from "~/game/application";
import { ROLE_PREFERENCES } from "~/game/roles";
import type { AskedQuestion } from "~/features/club-facts/questions/questions.facts";
import { answerFields } from "~/features/club-facts/questions/questions.form";
import { textField } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";

export const DISCORD_TAG_MAX = 100;

/** A required answer: the kernel's text field with "This field is required" (docs/product.md#messages). */
export const answer = (max: number) => textField(max);

/**
 * The application's form for the written questions it asks (the club's, when it was opened):
 * the Discord name, player or cast, and an answer a question, named by the question's key.
 */
export function applicationFormFor(questions: readonly AskedQuestion[]) {
  return z.object({
    discordTag: answer(DISCORD_TAG_MAX),
    rolePreference: z.enum(ROLE_PREFERENCES, { error: MESSAGES.required }),
    ...answerFields(questions, APPLICATION_ANSWER_MAX),
  });
}
