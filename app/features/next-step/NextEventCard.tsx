import { Link } from "~/components/Link";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { formatEventDate } from "~/lib/dates";
import type { NextEvent, NextStep } from "./next-step.server";
import { StepGroup } from "./StepRow";

const REGISTRATION_WORDS: Record<NextEvent["registration"], string> = {
  registered: "You are registered",
  unpaid: "On the list; payment not recorded",
  "not registered": "You are not registered yet",
};

/**
 * The member's next event: where they stand for it (registration; for a member on the list who
 * sends costume photos, the photo and its day), and the step to take, if any, as a button.
 */
export function NextEventCard({ event, role }: { event: NextEvent | null; role: NextStep["role"] }) {
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
        <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-2">
          {role === "player" && !registered ? (
            <Link to="/events" className="btn btn-primary">
              Get your ticket
            </Link>
          ) : null}
          {event.costume && event.costume.status !== "approved" ? (
            <Link to="/costume" className="btn btn-secondary">
              {event.costume.status === "missing" ? "Send a costume photo" : "Your costume photos"}
            </Link>
          ) : null}
          <Link to="/events" className="inline-flex min-h-11 items-center underline">
            All events
          </Link>
        </p>
      </div>
    </StepGroup>
  );
}
