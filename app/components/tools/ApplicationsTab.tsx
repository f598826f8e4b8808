import { formatClubDay } from "~/lib/dates";
import { Form, useNavigation } from "react-router";
import { ApplicationAnswers, StatusBadge } from "~/components/ApplicationAnswers";
import type { ApplicationStatus } from "~/game/roles";
import { Pager, ResultCount } from "./ListControls";

type Application = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: ApplicationStatus;
  createdAt: string | Date;
  discordTag: string;
  rolePreference: string;
} & Record<string, unknown>;


/** Every application, newest first; accept and reject only on pending ones, each confirmed first. */
export function ApplicationsTab({ list }: { list: { applications: Application[]; total: number; page: number; lastPage: number } }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className="flex flex-col gap-4">
      <ResultCount total={list.total} noun="application" />
      <ul className="flex flex-col gap-4">
        {list.applications.map((application) => {
          const name = `${application.firstName} ${application.lastName}`;
          return (
            <li key={application.id} className="rounded-md border border-timber/70 p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <h3 className="text-xl">{name}</h3>
                  <p className="text-sm text-dust">
                    {application.email} · applied {formatClubDay(application.createdAt)} · wants to join as {application.rolePreference}
                  </p>
                </div>
                <StatusBadge status={application.status} />
              </div>
              <details className="mt-3">
                <summary className="text-brass">Read the answers</summary>
                <div className="mt-3">
                  <ApplicationAnswers application={application} />
                </div>
              </details>
              {application.status === "pending" ? (
                <div className="mt-4 flex gap-3">
                  {(["accept", "reject"] as const).map((intent) => (
                    <Form
                      key={intent}
                      method="post"
                      onSubmit={(event) => {
                        const question = intent === "accept" ? `Accept ${name}'s application? They will be emailed.` : `Reject ${name}'s application?`;
                        if (!window.confirm(question)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="intent" value={intent} />
                      <input type="hidden" name="applicationId" value={application.id} />
                      <button type="submit" className={`btn ${intent === "accept" ? "btn-primary" : "btn-secondary"}`} disabled={busy}>
                        {intent === "accept" ? "Accept" : "Reject"}
                        <span className="sr-only"> {name}</span>
                      </button>
                    </Form>
                  ))}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Pager page={list.page} lastPage={list.lastPage} />
    </div>
  );
}
