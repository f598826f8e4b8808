import { formatClubDay } from "~/lib/dates";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { ApplicationAnswers, StatusBadge } from "~/features/members/ApplicationAnswers";
import type { ApplicationStatus } from "~/game/roles";
import type { WrittenAnswer } from "~/platform/db/schema";
import { applicationQuestion, useConfirmedSubmit } from "./Confirm";
import { Pager, ResultCount } from "~/components/ListControls";

type Application = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: ApplicationStatus;
  createdAt: string | Date;
  discordTag: string;
  rolePreference: string;
  /** The written questions as the applicant was asked them, with their answers. */
  answers: WrittenAnswer[];
};

type Filter = ApplicationStatus | "all";
const FILTERS: { id: Filter; label: string }[] = [
  { id: "pending", label: "Pending" },
  { id: "accepted", label: "Accepted" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
];

type Listing = {
  applications: Application[];
  total: number;
  counts: Record<Filter, number>;
  status: Filter;
  page: number;
  lastPage: number;
};

/**
 * Applications of one status, newest first: pending ones unless another status is chosen.
 * The filter is a row of links, so it works without JavaScript and each view has an address;
 * the pager keeps the chosen status. Accept and reject only on pending ones, each confirmed first.
 */
export function ApplicationsTab({ list }: { list: Listing }) {
  const navigation = useNavigation();
  const confirmed = useConfirmedSubmit();
  const busy = navigation.state !== "idle";
  const current = FILTERS.find((f) => f.id === list.status)!;
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Application status">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((filter) => (
            <li key={filter.id}>
              <Link
                to={`?tab=applications&status=${filter.id}`}
                aria-current={filter.id === list.status ? "page" : undefined}
                className={`inline-flex min-h-11 items-center gap-2 rounded-full border px-4 py-1 no-underline hover:no-underline ${
                  filter.id === list.status
                    ? "border-rust-dark bg-rust-dark text-parchment"
                    : "border-timber text-parchment hover:bg-ash"
                }`}
              >
                {filter.label}
                <span className="text-sm tabular-nums">{`(${list.counts[filter.id].toLocaleString("en-US")})`}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ResultCount
        total={list.total}
        noun={list.status === "all" ? "application" : `${current.label.toLowerCase()} application`}
      />
      {list.applications.length === 0 && list.page === 0 ? (
        <p className="text-dust">
          {list.status === "pending" ? "No applications are waiting for a decision." : "No applications here."}
        </p>
      ) : null}
      <ul className="flex flex-col gap-4">
        {list.applications.map((application) => {
          const name = `${application.firstName} ${application.lastName}`;
          return (
            <li key={application.id} className="rounded-md border border-timber/70 p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <h3 className="text-xl">{name}</h3>
                  <p className="text-sm text-dust">
                    {application.email} · applied {formatClubDay(application.createdAt)} · wants to join as{" "}
                    {application.rolePreference}
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
                    <Form key={intent} method="post" onSubmit={confirmed(applicationQuestion(intent, name))}>
                      <input type="hidden" name="intent" value={intent} />
                      <input type="hidden" name="applicationId" value={application.id} />
                      <button
                        type="submit"
                        className={`btn ${intent === "accept" ? "btn-primary" : "btn-secondary"}`}
                        disabled={busy}
                      >
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
