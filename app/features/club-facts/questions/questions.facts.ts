import { z } from "zod";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { PEL_QUESTIONS } from "~/game/pel";

/**
 * The post-event letter's questions (kind "pel-questions") and the application's written
 * questions (kind "application-questions"), as the club keeps them. A letter or an application
 * stores each question's wording with its answer, so rewording or retiring a question leaves what
 * was written reading as it was; a retired question is no longer asked.
 */

export const QUESTIONS_MAX = 60;

export const QUESTION_MESSAGES = {
  label: "Write the question, up to 300 characters.",
  hint: "Keep the hint to 300 characters.",
  tooMany: `A form holds at most ${QUESTIONS_MAX} questions.`,
  noneAsked: "Keep at least one question asked.",
} as const;

/** One question; its key names its answer in every letter or application and never changes. */
export const QuestionSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/),
  label: z.string().trim().min(1, QUESTION_MESSAGES.label).max(300, QUESTION_MESSAGES.label),
  hint: z.string().trim().max(300, QUESTION_MESSAGES.hint),
  required: z.boolean(),
  retired: z.boolean(),
});
export type ClubQuestion = z.infer<typeof QuestionSchema>;

const QuestionsSchema = z
  .array(QuestionSchema)
  .max(QUESTIONS_MAX, QUESTION_MESSAGES.tooMany)
  .refine((questions) => questions.some((q) => !q.retired), QUESTION_MESSAGES.noneAsked);
export const PelQuestionsSchema = QuestionsSchema;
export const ApplicationQuestionsSchema = QuestionsSchema;

/** Today's post-event letter: eleven questions, every one required. */
export function startingPelQuestions(): ClubQuestion[] {
  return PEL_QUESTIONS.map((q) => ({
    key: q.key,
    label: q.label,
    hint: "hint" in q ? q.hint : "",
    required: true,
    retired: false,
  }));
}

/** Today's application: fifteen written questions, every one required. */
export function startingApplicationQuestions(): ClubQuestion[] {
  return APPLICATION_TEXT_QUESTIONS.map((q) => ({
    key: q.key,
    label: q.label,
    hint: "hint" in q ? q.hint : "",
    required: true,
    retired: false,
  }));
}
