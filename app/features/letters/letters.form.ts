import { z } from "zod";
import { CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { submissionKey } from "~/features/submissions/submissions.form";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import type { LetterDelivery } from "~/game/letters";
import { type FieldErrors, textField } from "~/web/forms/kernel";
import { LETTER_BODY_MAX, LETTER_MESSAGES } from "./letters.messages";

/** The letter forms: a member's letter and reply (routes/member/), and the staff's release and answer (routes/staff/review/letters.tsx). */

const LETTER_TOO_LONG = `Please keep your letter to ${LETTER_BODY_MAX.toLocaleString("en-US")} characters or fewer`;

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

/** What the server answers to a letter or a reply the member sent: where it went, or what was wrong. */
export type LetterSentAnswer = {
  sent?: boolean;
  delivery?: LetterDelivery;
  recipient?: string;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
};
