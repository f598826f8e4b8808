import { QUEUE_KIND_LABELS } from "~/game/review-queue";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import type { MemberAnswer } from "./staff-replies.server";

/** The member's "Answers from staff": each reply with the entry it answers, newest first. Text only, shown as written. */
export function AnswersFromStaff({ answers }: { answers: MemberAnswer[] }) {
  return (
    <section aria-labelledby="answers-from-staff" className="panel" data-testid="answers-from-staff">
      <h2 id="answers-from-staff" className="text-2xl">
        Answers from staff
      </h2>
      {answers.length === 0 ? (
        <p className="mt-2 text-dust">
          No answers yet. When staff reply to a post-event letter, an order or a research paper of yours, the reply
          appears here.
        </p>
      ) : (
        <ol className="mt-4 flex flex-col gap-3">
          {answers.map((answer) => (
            <li key={answer.id} className="rounded-md border border-timber/70 p-3">
              <h3 className="font-bold text-brass">
                {QUEUE_KIND_LABELS[answer.kind]}
                {answer.eventTitle ? ` · ${answer.eventTitle}` : ""}
                {answer.eventDate ? (
                  <span className="font-normal text-dust">{` (${formatEventDate(answer.eventDate)})`}</span>
                ) : null}
              </h3>
              <p className="text-sm text-dust">
                {answer.entrySentAt
                  ? `${answer.kind === "order" ? "Placed" : "Sent"} ${formatClubTime(answer.entrySentAt)} · answered ${formatClubTime(answer.createdAt)}`
                  : `Answered ${formatClubTime(answer.createdAt)}`}
              </p>
              <p className="mt-1 whitespace-pre-wrap">{answer.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
