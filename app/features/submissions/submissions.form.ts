import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { MERCHANT_ITEMS } from "~/game/merchant";
import { PEL_ANSWER_MAX, PEL_QUESTIONS, type PelQuestionKey } from "~/game/pel";
import { answer } from "~/features/members/application.form";
import { CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { textField } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";
import { FORM_EXPIRED, LETTER_BODY_MAX, LETTER_MESSAGES, SUBMISSION_MESSAGES } from "./submissions.messages";

/** The one-time key a form is rendered with (see schema.ts: submissionKey). */
export const submissionKey = z.string().refine(isUuid, FORM_EXPIRED);
export const eventChoice = (message: string) => z.string({ error: message }).refine(isUuid, message);

const LETTER_TOO_LONG = `Please keep your letter to ${LETTER_BODY_MAX.toLocaleString("en-US")} characters or fewer`;

const pelAnswers = Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, answer(PEL_ANSWER_MAX)])) as Record<
  PelQuestionKey,
  ReturnType<typeof answer>
>;

export const PelForm = z.object({
  submissionKey,
  eventId: eventChoice(MESSAGES.required),
  characterName: answer(CHARACTER_NAME_MAX),
  ...pelAnswers,
});
export type PelInput = z.infer<typeof PelForm>;

export const LetterForm = z.object({
  submissionKey,
  recipient: textField(CHARACTER_NAME_MAX, {
    required: SUBMISSION_MESSAGES.fillAllFields,
    tooLong: `Please keep the name to ${CHARACTER_NAME_MAX} characters or fewer`,
  }),
  body: textField(LETTER_BODY_MAX, { required: SUBMISSION_MESSAGES.fillAllFields, tooLong: LETTER_TOO_LONG }),
});
export type LetterInput = z.infer<typeof LetterForm>;

const letterBody = textField(LETTER_BODY_MAX, {
  required: SUBMISSION_MESSAGES.fillAllFields,
  tooLong: LETTER_TOO_LONG,
});
/** A letter's id as a form sends it; a malformed one is "no such letter" (404), not a field error. */
const letterId = z.string({ error: LETTER_MESSAGES.notFound });

/** A reply, in character, to a letter in the member's letter box. */
export const ReplyForm = z.object({ intent: z.literal("reply"), submissionKey, replyTo: letterId, body: letterBody });
export type ReplyInput = z.infer<typeof ReplyForm>;

/** Staff: release a held letter, or answer a letter to an NPC as that NPC (/view-letters). */
export const ReleaseForm = z.object({ intent: z.literal("release"), letterId });
export const AnswerForm = z.object({ intent: z.literal("answer"), submissionKey, letterId, body: letterBody });
export type AnswerInput = z.infer<typeof AnswerForm>;
export const StaffLetterForms = z.discriminatedUnion("intent", [ReleaseForm, AnswerForm]);

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
