import { WrittenAnswerRows } from "~/features/club-facts/questions/QuestionFields";
import { DISCORD_TAG_QUESTION, ROLE_PREFERENCE_QUESTION } from "~/game/application";
import type { ApplicationStatus } from "~/game/roles";
import type { WrittenAnswer } from "~/platform/db/schema";

export type ApplicationView = {
  status: ApplicationStatus;
  createdAt: string | Date;
  discordTag: string;
  rolePreference: string;
  /** The written questions as the member was asked them, with their answers. */
  answers: readonly WrittenAnswer[];
};

const BADGE: Record<ApplicationStatus, string> = {
  pending: "border-brass text-brass",
  accepted: "border-sage text-sage",
  rejected: "border-blood text-blood",
};

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <span
      className={`inline-block rounded-full border px-3 py-0.5 text-sm font-bold capitalize ${BADGE[status]}`}
      data-testid="application-status"
    >
      {status}
    </span>
  );
}

/** Every answer of a submitted application, readable, under the questions as the member was asked them. */
export function ApplicationAnswers({ application }: { application: ApplicationView }) {
  const roleLabel =
    ROLE_PREFERENCE_QUESTION.options.find((o) => o.value === application.rolePreference)?.label ??
    application.rolePreference;
  const rows: [string, string][] = [
    [DISCORD_TAG_QUESTION.label, application.discordTag],
    [ROLE_PREFERENCE_QUESTION.label, roleLabel],
  ];
  return (
    <dl className="flex flex-col gap-4">
      {rows.map(([question, answer]) => (
        <div key={question}>
          <dt className="font-bold text-brass">{question}</dt>
          <dd className="mt-1 whitespace-pre-wrap text-parchment">{answer}</dd>
        </div>
      ))}
      <WrittenAnswerRows answers={application.answers} />
    </dl>
  );
}
