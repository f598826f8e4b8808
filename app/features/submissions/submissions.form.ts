import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { MERCHANT_ITEMS } from "~/game/merchant";
import { PEL_ANSWER_MAX, PEL_QUESTIONS, type PelQuestionKey } from "~/game/pel";
import { answer } from "~/features/members/application.form";
import { CHARACTER_NAME_MAX } from "~/features/members/character.form";
import { textField } from "~/web/forms/kernel";
import { MESSAGES } from "~/web/forms/messages";

/** Messages of the submission forms (docs/product.md#member-forms). */
export const SUBMISSION_MESSAGES = {
  selectEvent: "Please select an event",
  addItem: "Please add at least one item to your order",
  fillAllFields: "Please fill in all fields",
  pelFailed: "Failed to submit PEL. Please try again.",
  orderFailed: "Failed to submit order. Please try again.",
  letterFailed: "Failed to submit letter. Please try again.",
  loadFailed: "Failed to load profile data",
  quantity: "Quantities must be whole numbers from 0 to 9,999",
} as const;

/** Messages of the letter box and the staff's letter queues. */
export const LETTER_MESSAGES = {
  notFound: "That letter is not there. It may not be yours, or not delivered yet.",
  notHeld: "That letter has already been released.",
  notWaiting: "That letter has already been answered.",
  released: "The letter was released into its recipient's letter box.",
  answered: "Your answer was delivered to the writer's letter box.",
  writerGone: "The writer of this letter has left the club, so a reply cannot reach them.",
} as const;

export const RESEARCH_MESSAGES = {
  fillAll: "Please fill in all fields and upload a file",
  fileType: "Please upload only JPG, JPEG, PNG or PDF files",
  fileSize: "File size must be less than 5MB",
  failed: "Failed to submit research. Please try again.",
} as const;

/** What a form drawn on a page too old to send again is answered with. */
export const FORM_EXPIRED = "This form has expired. Please reload the page and try again.";

/** The one-time key a form is rendered with (see schema.ts: submissionKey). */
export const submissionKey = z.string().refine(isUuid, FORM_EXPIRED);
export const eventChoice = (message: string) => z.string({ error: message }).refine(isUuid, message);

export const LETTER_BODY_MAX = 10_000;
const LETTER_TOO_LONG = `Please keep your letter to ${LETTER_BODY_MAX.toLocaleString("en-US")} characters or fewer`;

const pelAnswers = Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, answer(PEL_ANSWER_MAX)])) as Record<PelQuestionKey, ReturnType<typeof answer>>;

export const PelForm = z.object({
  submissionKey,
  eventId: eventChoice(MESSAGES.required),
  characterName: answer(CHARACTER_NAME_MAX),
  ...pelAnswers,
});
export type PelInput = z.infer<typeof PelForm>;

export const LetterForm = z.object({
  submissionKey,
  recipient: textField(CHARACTER_NAME_MAX, { required: SUBMISSION_MESSAGES.fillAllFields, tooLong: `Please keep the name to ${CHARACTER_NAME_MAX} characters or fewer` }),
  body: textField(LETTER_BODY_MAX, { required: SUBMISSION_MESSAGES.fillAllFields, tooLong: LETTER_TOO_LONG }),
});
export type LetterInput = z.infer<typeof LetterForm>;

const letterBody = textField(LETTER_BODY_MAX, { required: SUBMISSION_MESSAGES.fillAllFields, tooLong: LETTER_TOO_LONG });
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
