import { CalendarDays, Ticket } from "lucide-react";
import type { Route } from "./+types/events";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { isManager as isManagerRole } from "~/game/roles";
import { formatEventDate } from "~/lib/dates";
import { Pager } from "~/components/tools/ListControls";
import { EVENTS_PAGE_SIZE, lastPage, pageParam } from "~/lib/paging";
import { listUpcomingEvents } from "~/server/events.server";
import { Link } from "react-router";
import { requireAccess } from "~/server/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const isManager = isManagerRole(user.role);
  const page = pageParam(request.url);
  // Ten at a time, soonest first: a page listing every announced date grew with them.
  const upcoming = await listUpcomingEvents();
  const last = lastPage(upcoming.length, EVENTS_PAGE_SIZE);
  const shown = Math.min(page, last);
  return { events: upcoming.slice(shown * EVENTS_PAGE_SIZE, (shown + 1) * EVENTS_PAGE_SIZE), page: shown, lastPage: last, isManager };
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const { events } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Upcoming Events</h1>
      <hr className="divider my-6" />
      {loaderData.isManager ? (
        <p className="mb-6 text-center">
          <Link to="/events/manage">Add, change or cancel events</Link>
        </p>
      ) : null}
      {events.length === 0 ? (
        <div className="panel text-center">
          <h2 className="text-2xl">No Events Scheduled</h2>
          <p className="mt-2 text-dust">New dates are announced to members by email and on our community channels. Check back soon.</p>
        </div>
      ) : (
        <ul className="flex flex-col gap-4">
          {events.map((event) => (
            <li key={event.id} className="panel flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <h2 className="text-2xl">{event.title}</h2>
                <p className="mt-1 flex items-center gap-2 text-dust">
                  <CalendarDays aria-hidden="true" className="size-5 text-rust" />
                  <time dateTime={event.date}>{formatEventDate(event.date)}</time>
                </p>
              </div>
              {event.ticketUrl ? (
                <a href={event.ticketUrl} target="_blank" rel="noopener noreferrer" className="btn btn-primary">
                  <Ticket aria-hidden="true" className="size-5" />
                  Purchase Ticket<span className="sr-only"> for {event.title} (opens in a new tab)</span>
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6">
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Upcoming Events · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Upcoming Events", "Failed to load events");
