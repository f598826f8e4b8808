import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { PEL_ANSWER_MAX } from "~/game/pel";
import type { AskedQuestion } from "~/features/club-facts/questions/questions.facts";
import { answerFields } from "~/features/club-facts/questions/questions.form";
import { answer } from "~/features/members/application.form";
import { CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { MESSAGES } from "~/web/forms/messages";
import { FORM_EXPIRED, SUBMISSION_MESSAGES } from "./submissions.messages";

/** The one-time key a form is rendered with (see schema.ts: submissionKey). */
export const submissionKey = z.string().refine(isUuid, FORM_EXPIRED);
export const eventChoice = (message: string) => z.string({ error: message }).refine(isUuid, message);

/**
 * The post-event letter's form for the questions it asks (the club's, when it was opened): the
 * event, the character's name and an answer a question, named by the question's key.
 */
export function pelFormFor(questions: readonly AskedQuestion[]) {
  return z.object({
    submissionKey,
    eventId: eventChoice(MESSAGES.required),
    characterName: answer(CHARACTER_NAME_MAX),
    ...answerFields(questions, PEL_ANSWER_MAX),
  });
}

/** A quantity as typed: a whole number of at most four digits (the page's running total reads it too). */
export const WHOLE_QUANTITY = /^\d{1,4}$/;

const quantity = z
  .string()
  .trim()
  .transform((value) => (value === "" ? "0" : value))
  .pipe(z.string().regex(WHOLE_QUANTITY, SUBMISSION_MESSAGES.quantity))
  .transform(Number);

/**
 * Quantities arrive as qty_<item key>, for whichever items the club's list has now; other fields
 * (a posted total or price) are dropped unread. Which items may be sold, and at what price, is
 * the server's to say when the order is placed (submitOrder), from the club's list.
 */
export const OrderForm = z
  .looseObject({ submissionKey, eventId: eventChoice(SUBMISSION_MESSAGES.selectEvent) })
  .transform(({ submissionKey: key, eventId, ...fields }, ctx) => {
    const items: Record<string, number> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (!name.startsWith("qty_")) continue;
      const parsed = quantity.safeParse(typeof value === "string" ? value : "");
      if (!parsed.success) ctx.addIssue({ code: "custom", path: [name], message: SUBMISSION_MESSAGES.quantity });
      else if (parsed.data > 0) items[name.slice("qty_".length)] = parsed.data;
    }
    return { submissionKey: key, eventId, items };
  })
  .refine((order) => Object.keys(order.items).length > 0, { path: ["items"], message: SUBMISSION_MESSAGES.addItem });
export type OrderInput = z.infer<typeof OrderForm>;
