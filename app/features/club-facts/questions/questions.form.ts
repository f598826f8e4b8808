import type { z } from "zod";
import type { AskedQuestion } from "./questions.facts";
import type { WrittenAnswer } from "~/platform/db/schema";
import { optionalTextField, textField } from "~/web/forms/kernel";

/**
 * The answers' part of a form that asks the club's questions (the post-event letter, the
 * application): a field a question, named by its key; a required one must be answered ("This
 * field is required"), an optional one may be left blank. Every answer is at most `max` long.
 */
export function answerFields(questions: readonly AskedQuestion[], max: number): Record<string, z.ZodType<string>> {
  return Object.fromEntries(questions.map((q) => [q.key, q.required ? textField(max) : optionalTextField(max)]));
}

/** The answers as a letter or an application keeps them: each with the question's wording as asked. */
export function writtenAnswers(
  questions: readonly AskedQuestion[],
  answered: Record<string, unknown>,
): WrittenAnswer[] {
  return questions.map((q) => {
    const answer = answered[q.key];
    return { key: q.key, question: q.label, answer: typeof answer === "string" ? answer : "" };
  });
}
