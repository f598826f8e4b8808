import type { Route } from "./+types/events-calendar";
import { calendarResponse, eventsCalendar, siteUrl } from "~/server/calendar.server";
import { config } from "~/server/config.server";
import { listUpcomingEvents } from "~/server/events.server";

/**
 * The calendar feed: every upcoming event (status future), for calendar apps to subscribe to.
 * Public like the schedule it mirrors (titles and dates only) and cacheable; a member's own
 * status is never in it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const body = eventsCalendar(await listUpcomingEvents(), { timeZone: config().clubTimeZone, siteUrl: siteUrl(request), feed: true });
  return calendarResponse(request, body, "hopewell-events.ics");
}
