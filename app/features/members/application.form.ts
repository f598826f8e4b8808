import { z } from "zod";
import { APPLICATION_ANSWER_MAX, APPLICATION_TEXT_QUESTIONS, type ApplicationTextKey } from "~/game/application";
import { ROLE_PREFERENCES } from "~/game/roles";
import { textField } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";

export const DISCORD_TAG_MAX = 100;

/** A required answer: the kernel's text field with "This field is required" (docs/product.md#messages). */
export const answer = (max: number) => textField(max);

const textAnswers = Object.fromEntries(
  APPLICATION_TEXT_QUESTIONS.map((q) => [q.key, answer(APPLICATION_ANSWER_MAX)]),
) as Record<ApplicationTextKey, ReturnType<typeof answer>>;

export const ApplicationForm = z.object({
  discordTag: answer(DISCORD_TAG_MAX),
  rolePreference: z.enum(ROLE_PREFERENCES, { error: MESSAGES.required }),
  ...textAnswers,
});

export type ApplicationInput = z.infer<typeof ApplicationForm>;
