import { Link } from "~/components/Link";
import { formatClubDay, formatEventDate } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import { NextEventCard } from "./NextEventCard";
import type { NextStep } from "./next-step.server";
import { ForTheManagers, ReviewQueues } from "./StaffWork";
import { StepGroup, StepRow } from "./StepRow";

/**
 * The signed-in member's part of `/`, above the public page: what waits for them first (their
 * application, letters due, unread letters), then the staff's queues and the managers' decisions
 * (their work comes before their own next event), then their next event, then their forms, each
 * one tap away. Staff with nothing of their own waiting are not told "nothing is waiting".
 */
export function NextStepPanel({ step }: { step: NextStep }) {
  return (
    <section aria-labelledby="next-step-title" data-testid="next-step" className="border-b border-timber bg-soot/70">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6 sm:py-10">
        <h2 id="next-step-title" className="text-3xl sm:text-4xl">
          Welcome back, {step.firstName}
        </h2>
        {/* Two columns from the md width, each a stack, so a short part leaves no hole beside a long one. */}
        <div className="grid gap-6 md:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-6">
            {!step.queues || somethingWaiting(step) ? <WaitingForYou step={step} /> : null}
            {step.queues ? <ReviewQueues queues={step.queues} /> : null}
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            {step.manager ? <ForTheManagers manager={step.manager} /> : null}
            <NextEventCard event={step.nextEvent} role={step.role} />
          </div>
          <FormLinks forms={step.forms} />
        </div>
      </div>
    </section>
  );
}

function somethingWaiting(step: NextStep): boolean {
  return Boolean(step.application) || step.lettersDue.length > 0 || (step.unreadLetters ?? 0) > 0;
}

function WaitingForYou({ step }: { step: NextStep }) {
  const unread = step.unreadLetters ?? 0;
  return (
    <StepGroup id="waiting-title" title="Waiting for you">
      <ul className="flex flex-col gap-2">
        {step.application ? (
          <li>
            <ApplicationRow application={step.application} />
          </li>
        ) : null}
        {step.lettersDue.map((event) => (
          <li key={event.id}>
            <StepRow
              to={`/pels?event=${event.id}`}
              icon="triangle-alert"
              tone="rust"
              title="Post-event letter due"
              detail={`${event.title}, ${formatEventDate(event.date)}: write it now`}
              testId="pel-due"
            />
          </li>
        ))}
        {unread > 0 ? (
          <li>
            <StepRow
              to="/letters?tab=box"
              icon="mail"
              title={countOf(unread, "unread letter")}
              detail="Open your letter box"
              testId="unread-letters-step"
            />
          </li>
        ) : null}
      </ul>
      {somethingWaiting(step) ? null : <p className="text-dust">Nothing is waiting for you. All caught up.</p>}
    </StepGroup>
  );
}

function ApplicationRow({ application }: { application: NonNullable<NextStep["application"]> }) {
  const sent = application.sentAt
    ? `Sent ${formatClubDay(application.sentAt)}; see what you sent`
    : "See what you sent";
  switch (application.status) {
    case "none":
      return (
        <StepRow
          to="/application"
          icon="circle-alert"
          tone="rust"
          title="You have not applied yet"
          detail="Apply to play: fill in the application"
          testId="application-step"
        />
      );
    case "pending":
      return (
        <StepRow
          to="/application"
          icon="calendar-clock"
          title="Your application is waiting for a manager's decision"
          detail={sent}
          testId="application-step"
        />
      );
    case "accepted":
      return (
        <StepRow
          to="/application"
          icon="circle-check"
          tone="sage"
          title="Your application was accepted"
          detail="See what you sent"
          testId="application-step"
        />
      );
    case "rejected":
      return (
        <StepRow
          to="/application"
          icon="circle-alert"
          title="Your application was not accepted"
          detail="See what you sent"
          testId="application-step"
        />
      );
  }
}

/** The member's forms straight from the page they land on: the header's Forms menu is two taps further on a phone. */
function FormLinks({ forms }: { forms: NextStep["forms"] }) {
  return (
    <nav aria-labelledby="your-forms-title" className="flex min-w-0 flex-col gap-2 md:col-span-2">
      <h3 id="your-forms-title" className="font-display text-lg tracking-wide text-dust uppercase">
        Your forms
      </h3>
      <ul className="flex flex-wrap gap-2">
        {forms.map((form) => (
          <li key={form.to}>
            <Link
              to={form.to}
              className="inline-flex min-h-11 items-center rounded-full border border-timber bg-ash/60 px-4 text-parchment no-underline hover:border-brass hover:text-brass hover:no-underline"
            >
              {form.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
