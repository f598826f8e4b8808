import { data } from "react-router";
import type { Route } from "./+types/event-calendar";
import { isUuid } from "~/lib/ids";
import { calendarResponse, eventsCalendar, siteUrl } from "~/features/events/calendar-files.server";
import { config } from "~/platform/config.server";
import { findUpcomingEvent } from "~/features/events/events.server";
import { requireAccess } from "~/web/guards.server";

/**
 * One upcoming event as a calendar file ("Add to calendar" on the events page, downloaded with
 * the member's session like the page itself); 404 for any other.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  const event = isUuid(params.id) ? await findUpcomingEvent(params.id.toLowerCase()) : undefined;
  if (!event) throw data("Not found", { status: 404 });
  const body = eventsCalendar([event], { timeZone: config().clubTimeZone, siteUrl: siteUrl(request), feed: false });
  return calendarResponse(request, body, `${event.title} ${event.date}.ics`);
}
