import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { MERCHANT_ITEMS } from "~/game/merchant";
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
 * Quantities arrive as qty_<item key>. Other fields (a posted total or price) are
 * dropped unread; a qty_ field for an item not on the list is refused by the action.
 */
export const OrderForm = z
  .object({
    submissionKey,
    eventId: eventChoice(SUBMISSION_MESSAGES.selectEvent),
    ...Object.fromEntries(MERCHANT_ITEMS.map((item) => [`qty_${item.key}`, quantity.optional()])),
  })
  .transform(({ submissionKey: key, eventId, ...quantities }) => ({
    submissionKey: key,
    eventId,
    items: Object.fromEntries(
      Object.entries(quantities)
        .map(([name, n]) => [name.slice("qty_".length), n as number] as const)
        .filter(([, n]) => n > 0),
    ),
  }))
  .refine((order) => Object.keys(order.items).length > 0, { path: ["items"], message: SUBMISSION_MESSAGES.addItem });
export type OrderInput = z.infer<typeof OrderForm>;
