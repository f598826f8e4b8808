// The letters page's own forms (/view-letters, routes/staff/review/letters.tsx): staff release a
// held letter or answer a letter to an NPC, one function each, with the page's answer to each outcome.
import { data } from "react-router";
import { StaffLetterForms, type AnswerInput } from "~/features/letters/letters.form";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { LETTER_MESSAGES } from "~/features/letters/letters.messages";
import type { SessionUser } from "~/lib/navigation";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { checkForm, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import { answerLetter, releaseLetter } from "./letter-review.server";
import type { QueueResult } from "./review-queue.form";

/** What the letters page shows after a form: about the letter `letterId`, or a queue's answer. */
export type StaffLetterAnswer = {
  done?: "released" | "answered";
  letterId?: string;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
} & QueueResult;

type Answer = Promise<ActionAnswer<StaffLetterAnswer>>;

/** Releases a held letter into its recipient's letter box. */
async function release(staff: SessionUser, letterId: string): Answer {
  return failSafely<StaffLetterAnswer>(
    "releasing a letter",
    { letterId, message: "Failed to release the letter. Please try again." },
    async () => {
      const outcome = await releaseLetter(staff, letterId);
      if (outcome === "not-found") return data({ letterId, message: LETTER_MESSAGES.notFound }, { status: 404 });
      if (outcome === "not-held") return data({ letterId, message: LETTER_MESSAGES.notHeld }, { status: 409 });
      return data({ done: "released" as const, letterId });
    },
  );
}

/** Answers a letter to an NPC as that NPC; a failure keeps the answer typed (`values`). */
async function answerAsNpc(staff: SessionUser, input: AnswerInput, values: FormValues): Answer {
  const { letterId } = input;
  return failSafely<StaffLetterAnswer>(
    "answering a letter",
    { letterId, message: SUBMISSION_MESSAGES.letterFailed, values },
    async () => {
      const outcome = await answerLetter(staff, input);
      if (outcome === "not-found") return data({ letterId, message: LETTER_MESSAGES.notFound }, { status: 404 });
      if (outcome === "not-waiting") return data({ letterId, message: LETTER_MESSAGES.notWaiting }, { status: 409 });
      return data({ done: "answered" as const, letterId });
    },
  );
}

/** The letters page's answer to a release or an answer form (already read), or the form's errors (400). */
export async function answerStaffLetterForm(staff: SessionUser, values: FormValues): Answer {
  const form = checkForm(StaffLetterForms, values);
  const letterId = form.values.letterId;
  if (!form.ok) {
    if (form.values.intent !== "release" && form.values.intent !== "answer")
      return data<StaffLetterAnswer>({ message: "That action is not available here." }, { status: 400 });
    return data<StaffLetterAnswer>(
      {
        letterId,
        message: form.errors.body ?? SUBMISSION_MESSAGES.fillAllFields,
        errors: form.errors,
        values: form.values,
      },
      { status: 400 },
    );
  }
  const input = form.data;
  return input.intent === "release" ? release(staff, input.letterId) : answerAsNpc(staff, input, form.values);
}
