import { Link } from "~/components/Link";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { formatClubDay, formatEventDate } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import type { NextEvent, NextStep } from "./next-step.server";
import { StaffWork } from "./StaffWork";
import { StepGroup, StepRow } from "./StepRow";

/**
 * The signed-in member's part of `/`, above the public page: what waits for them first (their
 * application, letters due, unread letters), then their next event, then the staff's queues, then
 * their forms, each one tap away.
 */
export function NextStepPanel({ step }: { step: NextStep }) {
  return (
    <section aria-labelledby="next-step-title" data-testid="next-step" className="border-b border-timber bg-soot/70">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6 sm:py-10">
        <h2 id="next-step-title" className="text-3xl sm:text-4xl">
          Welcome back, {step.firstName}
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          <WaitingForYou step={step} />
          <NextEventPart event={step.nextEvent} role={step.role} />
          {step.queues ? <StaffWork queues={step.queues} manager={step.manager} /> : null}
          <FormLinks forms={step.forms} />
        </div>
      </div>
    </section>
  );
}

function WaitingForYou({ step }: { step: NextStep }) {
  const unread = step.unreadLetters ?? 0;
  const nothing = !step.application && step.lettersDue.length === 0 && unread === 0;
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
      {nothing ? <p className="text-dust">Nothing is waiting for you. All caught up.</p> : null}
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
          detail="A manager will write to you; see what you sent"
          testId="application-step"
        />
      );
  }
}

const REGISTRATION_WORDS: Record<NextEvent["registration"], string> = {
  registered: "You are registered",
  unpaid: "On the list; payment not recorded",
  "not registered": "You are not registered yet",
};

function NextEventPart({ event, role }: { event: NextEvent | null; role: NextStep["role"] }) {
  if (!event)
    return (
      <StepGroup id="next-event-title" title="Next event">
        <p className="text-dust">No events scheduled. New dates are announced to members by email.</p>
      </StepGroup>
    );
  const registered = event.registration !== "not registered";
  return (
    <StepGroup id="next-event-title" title="Next event">
      <div className="flex flex-col gap-2 rounded-md border border-timber bg-ash/40 p-4" data-testid="next-event">
        <p>
          <span className="block font-display text-xl text-parchment">{event.title}</span>
          <time dateTime={event.date} className="text-dust">
            {formatEventDate(event.date)}
          </time>
        </p>
        {role === "applicant" ? (
          <p className="text-dust">Members come to events once their application is accepted.</p>
        ) : (
          <p className={registered ? "font-bold text-sage" : "font-bold text-brass"} data-testid="registration">
            {REGISTRATION_WORDS[event.registration]}
          </p>
        )}
        {event.costume ? (
          <p data-testid="costume-step">
            Costume photo: <strong>{COSTUME_STATUS_LABELS[event.costume.status]}</strong>
            {event.costume.status === "approved"
              ? null
              : `, ${event.costume.countdown} (${formatEventDate(event.costume.due)})`}
          </p>
        ) : null}
        <p className="flex flex-wrap gap-x-4">
          {role === "player" && !registered ? (
            <Link to="/events" className="inline-flex min-h-11 items-center font-bold">
              Get your ticket
            </Link>
          ) : null}
          {event.costume && event.costume.status !== "approved" ? (
            <Link to="/costume" className="inline-flex min-h-11 items-center font-bold">
              {event.costume.status === "missing" ? "Send a costume photo" : "Your costume photos"}
            </Link>
          ) : null}
          <Link to="/events" className="inline-flex min-h-11 items-center">
            All events
          </Link>
        </p>
      </div>
    </StepGroup>
  );
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
