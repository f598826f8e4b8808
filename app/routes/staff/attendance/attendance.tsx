import { Link } from "react-router";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/attendance";
import { formatEventDate } from "~/lib/dates";
import { attendanceSummary, paidAttendees } from "~/features/attendance/attendance.server";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/web/guards.server";

/** Paid attendance by event; an event's list is loaded when it is opened. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "staff");
  const open = new URL(request.url).searchParams.get("event");
  const [events, opened] = await Promise.all([attendanceSummary(), isUuid(open) ? paidAttendees(open) : null]);
  return { events, open, opened };
}

export default function Attendance({ loaderData }: Route.ComponentProps) {
  const { events, open, opened } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Attendance</h1>
      <hr className="divider my-6" />
      <ul className="flex flex-col gap-3">
        {events.map((event) => {
          const isOpen = open === event.id && opened;
          return (
            <li key={event.id} className="panel p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <Link to={isOpen ? "?" : `?event=${event.id}`} aria-expanded={Boolean(isOpen)} className="font-display text-xl text-brass no-underline hover:underline" preventScrollReset>
                  {event.title}
                </Link>
                <span className="text-sm text-dust">{`${formatEventDate(event.date)} · ${event.attendees} paid`}</span>
              </div>
              {isOpen ? (
                <div className="mt-4 flex flex-col gap-3">
                  {opened.rows.length === 0 ? (
                    <p className="text-dust">Nobody is recorded for this event yet.</p>
                  ) : (
                    <table className="w-full border-collapse text-left">
                      <thead>
                        <tr className="border-b border-timber text-dust">
                          <th scope="col" className="py-2 pr-3">Name</th>
                          <th scope="col" className="py-2 pr-3">Character</th>
                          <th scope="col" className="py-2">Cabin</th>
                        </tr>
                      </thead>
                      <tbody>
                        {opened.rows.map((row, i) => (
                          <tr key={i} className="border-b border-timber/40">
                            <td className="py-2 pr-3">{`${row.firstName} ${row.lastName}`}</td>
                            <td className="py-2 pr-3">{row.characterName ?? "No character"}</td>
                            <td className="py-2">{row.cabin ?? "Not assigned"}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                  <a href={`/attendance/${event.id}/csv`} className="btn btn-secondary self-start" download>
                    Export CSV<span className="sr-only"> for {event.title}</span>
                  </a>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Attendance · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Attendance", "Failed to load attendance data");
