import { isManager } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { clubToday } from "~/lib/dates";
import { EVENTS_PAGE_SIZE, lastPage } from "~/lib/paging";
import { config } from "~/platform/config.server";
import { directionsUrl } from "~/features/site/site.server";
import { getApplication } from "~/features/members/applications.server";
import { ticketOffers, ticketReceipts } from "~/features/tickets/offers.server";
import { ticketSalesEnabled } from "~/features/tickets/stripe.server";
import { calendarFeedPath } from "./calendar-feed.server";
import { memberEventStatuses } from "./event-statuses.server";
import { eventTimeLabels } from "./event-times.server";
import { listUpcomingEvents } from "./events.server";

/**
 * What the members' events page (routes/events/events.tsx) shows one member: a page of upcoming
 * events, each with its times, its ticket and the member's own status, the letters they owe, and
 * their calendar feed's address on `siteUrl`.
 */
export async function eventsPage(user: SessionUser, page: number, siteUrl: string) {
  // Ten at a time, soonest first: a page listing every announced date grew with them.
  const upcoming = await listUpcomingEvents();
  const last = lastPage(upcoming.length, EVENTS_PAGE_SIZE);
  const shown = Math.min(page, last);
  const listed = upcoming.slice(shown * EVENTS_PAGE_SIZE, (shown + 1) * EVENTS_PAGE_SIZE);
  const timeZone = config().clubTimeZone;
  // The member's own rows for every listed event at once (one kept query, not one per event), and
  // their registrations for any upcoming event, which the page leads with.
  const mine = await memberEventStatuses(user.id, listed, clubToday(new Date(), timeZone), upcoming);
  // The member's own feed address (apps send no cookie): shown to them alone, on this private page.
  const feed = `${siteUrl}${await calendarFeedPath(user.id)}`;
  const registered = new Set(
    listed.filter((event) => mine.byEvent[event.id]?.registration === "registered").map((event) => event.id),
  );
  const onSite = ticketSalesEnabled();
  const [tickets, receipts, applied] = await Promise.all([
    ticketOffers(user, listed, registered),
    // The page each ticket paid on the site was confirmed on, for the member to open again.
    onSite
      ? ticketReceipts(
          user.id,
          mine.registrations.filter((event) => event.paid).map((event) => event.id),
        )
      : ({} as Record<string, string>),
    // An applicant is told why they cannot buy a ticket yet, which depends on their application.
    user.role === "applicant" ? getApplication(user.id) : undefined,
  ]);
  return {
    registrations: mine.registrations.map((event) => ({
      ...event,
      receipt: receipts[event.id] ?? null,
      // Where its card is: this page, or another page of the list.
      page: Math.floor(upcoming.findIndex((u) => u.id === event.id) / EVENTS_PAGE_SIZE),
    })),
    applicant: user.role === "applicant" ? { application: applied?.status ?? null } : null,
    events: listed.map((event) => ({
      id: event.id,
      title: event.title,
      date: event.date,
      // Sold on the site (with Stripe's keys set), the event's payment link gives way to its ticket.
      ticketUrl: tickets[event.id] ? null : event.ticketUrl,
      ticket: tickets[event.id] ?? null,
      // Tickets are sold for it, by the link or on the site: what an applicant is told they cannot buy yet.
      sellsTickets: event.ticketUrl !== null || (onSite && event.ticketPriceCents !== null),
      receipt: receipts[event.id] ?? null,
      times: eventTimeLabels(event.date, timeZone),
      status: mine.byEvent[event.id]!,
    })),
    lettersDue: mine.lettersDue,
    directions: directionsUrl(),
    feed: { url: feed, subscribe: feed.replace(/^https?:/, "webcal:") },
    page: shown,
    lastPage: last,
    isManager: isManager(user.role),
  };
}
