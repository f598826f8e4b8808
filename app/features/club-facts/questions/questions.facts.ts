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
export const QUESTION_LABEL_MAX = 300;
export const QUESTION_HINT_MAX = 300;

/**
 * The names the forms give their other fields: a question's key names its answer's field, so no
 * question may take one of these.
 */
export const FORM_FIELD_NAMES = [
  "submissionKey",
  "eventId",
  "characterName",
  "discordTag",
  "rolePreference",
  "questionsVersion",
] as const;

export const QUESTION_MESSAGES = {
  label: "Write the question, up to 300 characters.",
  hint: "Keep the hint to 300 characters.",
  tooMany: `A form holds at most ${QUESTIONS_MAX} questions.`,
  noneAsked: "Keep at least one question asked.",
  sameKey: "Two questions have the same name. Reload the page and make your change again.",
} as const;

/** One question; its key names its answer in every letter or application and never changes. */
export const QuestionSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/),
  label: z.string().trim().min(1, QUESTION_MESSAGES.label).max(QUESTION_LABEL_MAX, QUESTION_MESSAGES.label),
  hint: z.string().trim().max(QUESTION_HINT_MAX, QUESTION_MESSAGES.hint),
  required: z.boolean(),
  retired: z.boolean(),
});
export type ClubQuestion = z.infer<typeof QuestionSchema>;

export const QuestionsSchema = z
  .array(QuestionSchema)
  .max(QUESTIONS_MAX, QUESTION_MESSAGES.tooMany)
  .refine((questions) => questions.some((q) => !q.retired), QUESTION_MESSAGES.noneAsked)
  .refine((questions) => {
    const keys = questions.map((q) => q.key);
    return new Set(keys).size === keys.length && !keys.some((key) => isFormFieldName(key));
  }, QUESTION_MESSAGES.sameKey);
export const PelQuestionsSchema = QuestionsSchema;
export const ApplicationQuestionsSchema = QuestionsSchema;

function isFormFieldName(key: string): boolean {
  return (FORM_FIELD_NAMES as readonly string[]).includes(key);
}

/** A question a form asks: its answer's field is named by its key. */
export type AskedQuestion = Pick<ClubQuestion, "key" | "label" | "hint" | "required">;

/** The questions a form asks from a list: those not retired, in order. */
export function askedQuestions(questions: readonly ClubQuestion[]): AskedQuestion[] {
  return questions.filter((q) => !q.retired).map(({ key, label, hint, required }) => ({ key, label, hint, required }));
}

/** Whether every question a form asks must be answered (the form then says so once, at its top). */
export function allRequired(questions: readonly AskedQuestion[]): boolean {
  return questions.every((q) => q.required);
}

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
