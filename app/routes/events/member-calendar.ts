import type { Route } from "./+types/member-calendar";
import { calendarResponse, eventsCalendar, siteUrl } from "~/features/events/calendar-files.server";
import { feedReaderAllowed } from "~/features/events/calendar-feed.server";
import { config } from "~/platform/config.server";
import { listUpcomingEvents } from "~/features/events/events.server";

/**
 * The calendar feed: every upcoming event (status future), for calendar apps to subscribe to.
 * Apps send no cookie, so the address is the member's own secret one (calendar-feed.server.ts),
 * checked on every reading: a wrong key, or a member deleted, suspended or without the right to
 * see /events, is the same plain 404. It is returned, not thrown, so React Router's error
 * handler never sees (or logs) the address.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!(await feedReaderAllowed(params.memberId, params.key))) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const body = eventsCalendar(await listUpcomingEvents(), {
    timeZone: config().clubTimeZone,
    siteUrl: siteUrl(request),
    feed: true,
  });
  return calendarResponse(request, body, "hopewell-events.ics");
}
