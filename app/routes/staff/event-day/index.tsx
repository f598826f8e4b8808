import type { Route } from "./+types/index";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { formatEventDate } from "~/lib/dates";
import { attendanceSummary } from "~/features/attendance/attendance.server";
import { requireAccess } from "~/web/guards.server";

/** The events, each with a link to its event-day sheet and how many paid attendees it has. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return { events: await attendanceSummary() };
}

export default function EventDayIndex({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Event-Day Sheets</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-4">
        <p className="text-sm text-dust">
          One sheet per event: attendees by cabin, emergency contacts, orders to hand out and what to collect. Open it
          before leaving for the venue: it stays readable on this device without signal until you sign out.
        </p>
        {loaderData.events.length === 0 ? (
          <p className="text-dust">No events yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {loaderData.events.map((event) => (
              <li
                key={event.id}
                className="flex flex-wrap items-baseline justify-between gap-2 rounded-md border border-timber/70 p-3"
              >
                <a href={`/tools/event-day/${event.id}`} className="font-display text-lg">
                  {event.title}
                </a>
                <span className="text-sm text-dust">{`${formatEventDate(event.date)} · ${event.attendees} paid`}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Event-Day Sheets · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Event-Day Sheets", "Failed to load events");
