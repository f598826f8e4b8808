import { Icon } from "~/components/Icon";
import type { Route } from "./+types/events";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { formatEventDate } from "~/lib/dates";
import { Pager } from "~/components/ListControls";
import { pageParam } from "~/lib/paging";
import { siteUrl } from "~/features/events/calendar-files.server";
import { EventsPageForms, FEED_MESSAGES, type EventsActionData } from "~/features/events/events-page.form";
import { eventsPage } from "~/features/events/events-page.server";
import { buyTicket, giveUpCheckout, renewFeed } from "~/features/events/events-page-actions.server";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { TicketActions } from "~/features/tickets/TicketActions";
import {
  eventName,
  MyStatus,
  NoTicketYet,
  PelDue,
  Registration,
  TimeAndPlace,
  YourRegistrations,
} from "~/features/events/EventParts";
import { Alert } from "~/components/ui/Alert";
import { checkForm, readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  return eventsPage(user, pageParam(request.url), siteUrl(request));
}

/** The page's buttons: buy a ticket, give up a checkout left open, or get a new calendar-feed address. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = checkForm(EventsPageForms, await readForm(request));
  if (!form.ok) return data<EventsActionData>({ message: FEED_MESSAGES.unknown }, { status: 400 });
  const input = form.data;
  switch (input.intent) {
    case "buy_ticket":
      return buyTicket(user, input.eventId, siteUrl(request));
    case "cancel_checkout":
      return giveUpCheckout(user, input.purchaseId);
    case "renew_feed":
      return renewFeed(user);
  }
}

type ListedEvent = Route.ComponentProps["loaderData"]["events"][number];

/**
 * An event's way to a ticket, by who is looking: an applicant is told why they cannot buy one
 * yet; a registered member has their registration instead (a second purchase is never wanted);
 * one on the list without a payment still may pay, as the lesser button; everyone else buys.
 */
function TicketButton({
  event,
  applicant,
  busy,
}: {
  event: ListedEvent;
  applicant: Route.ComponentProps["loaderData"]["applicant"];
  busy: boolean;
}) {
  if (applicant) return event.sellsTickets ? <NoTicketYet application={applicant.application} /> : null;
  const { registration } = event.status;
  if (event.ticket && event.ticket.state !== "have")
    return <TicketActions offer={event.ticket} eventId={event.id} eventName={eventName(event)} busy={busy} />;
  if (!event.ticketUrl || registration === "registered") return null;
  return (
    <a
      href={event.ticketUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={`btn ${registration === "unpaid" ? "btn-secondary" : "btn-primary"}`}
    >
      <Icon name="ticket" className="size-5" />
      Purchase Ticket<span className="sr-only">{` for ${eventName(event)} (opens in a new tab)`}</span>
    </a>
  );
}

export default function Events({ loaderData, actionData }: Route.ComponentProps) {
  const { events, lettersDue, directions, feed, registrations, applicant } = loaderData;
  const sending = useNavigation().formData?.get("intent");
  const renewing = sending === "renew_feed";
  const buying = sending === "buy_ticket" || sending === "cancel_checkout";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Upcoming Events</h1>
      <hr className="divider my-6" />
      {loaderData.isManager ? (
        <p className="mb-6 text-center">
          <Link to="/events/manage">Add, change or cancel events</Link>
        </p>
      ) : null}
      <YourRegistrations registrations={registrations} />
      {lettersDue.length > 0 ? (
        <section aria-labelledby="letters-due" className="panel mb-6">
          <h2 id="letters-due" className="text-2xl">
            Post-Event Letters Due
          </h2>
          <ul className="mt-2 flex flex-col gap-2">
            {lettersDue.map((event) => (
              <li key={event.id}>
                {event.title} (<time dateTime={event.date}>{formatEventDate(event.date)}</time>):{" "}
                <PelDue event={event} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {actionData?.ticket || actionData?.ticketOk ? (
        <div className="mb-6">
          {actionData.ticket ? (
            <Alert kind="error">{actionData.ticket}</Alert>
          ) : (
            <Alert kind="success">{actionData.ticketOk}</Alert>
          )}
        </div>
      ) : null}
      {events.length === 0 ? (
        <div className="panel text-center">
          <h2 className="text-2xl">No Events Scheduled</h2>
          <p className="mt-2 text-dust">
            New dates are announced to members by email and on our community channels. Check back soon.
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-4">
          {events.map((event) => (
            <li key={event.id} id={`event-${event.id}`} className="panel flex flex-col gap-4">
              <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
                <div>
                  <h2 className="text-2xl">{event.title}</h2>
                  <p className="mt-1 flex items-center gap-2 text-dust">
                    <Icon name="calendar-days" className="size-5 text-rust" />
                    <time dateTime={event.date}>{formatEventDate(event.date)}</time>
                  </p>
                  <div className="mt-3 empty:hidden">
                    <Registration event={event} />
                  </div>
                </div>
                <div className="flex flex-col gap-2 sm:items-end">
                  <TicketButton event={event} applicant={applicant} busy={buying} />
                  <a href={`/events/${event.id}/calendar.ics`} className="btn btn-secondary" download>
                    <Icon name="calendar-plus" className="size-5" />
                    Add to Calendar<span className="sr-only">{` ${eventName(event)}`}</span>
                  </a>
                </div>
              </div>
              <TimeAndPlace event={event} directions={directions} />
              <MyStatus event={event} />
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6">
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
      <section aria-labelledby="calendar-feed" className="panel mt-6">
        <h2 id="calendar-feed" className="text-2xl">
          Calendar Feed
        </h2>
        <p className="mt-2">
          Every upcoming event in your calendar app, kept up to date:{" "}
          <a href={feed.subscribe}>Subscribe to the calendar</a>, or add this address as a calendar from a URL:
        </p>
        <p className="mt-2 break-all">
          <code>{feed.url}</code>
        </p>
        <p className="mt-2 text-dust">
          This address is yours alone: keep it to yourself, as anyone who has it can read the schedule.
        </p>
        {actionData && !actionData.ticket && !actionData.ticketOk ? (
          <div className="mt-3">
            {actionData.ok ? (
              <Alert kind="success">{actionData.ok}</Alert>
            ) : (
              <Alert kind="error">{actionData.message}</Alert>
            )}
          </div>
        ) : null}
        <Form method="post" preventScrollReset className="mt-4 flex flex-col gap-2">
          <p id="renew-feed-note">
            If someone else may have it, get a new address: the one above then stops working, here and in any calendar
            app subscribed to it.
          </p>
          <button
            type="submit"
            name="intent"
            value="renew_feed"
            className="btn btn-secondary self-start"
            aria-describedby="renew-feed-note"
            disabled={renewing}
          >
            {renewing ? "Making a new address…" : "Get a new address"}
          </button>
        </Form>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Upcoming Events · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Upcoming Events", "Failed to load events");
