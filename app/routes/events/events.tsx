import { Icon } from "~/components/Icon";
import type { Route } from "./+types/events";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { formatDollars } from "~/game/merchant";
import { VENUE, VENUE_ADDRESS } from "~/game/setting";
import { formatClubDay, formatEventDate } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import { Pager } from "~/components/ListControls";
import { pageParam } from "~/lib/paging";
import { siteUrl } from "~/features/events/calendar-files.server";
import type { MemberEventStatus } from "~/features/events/event-statuses.server";
import { EventsPageForms, FEED_MESSAGES, type EventsActionData } from "~/features/events/events-page.form";
import { eventsPage } from "~/features/events/events-page.server";
import { buyTicket, giveUpCheckout, renewFeed } from "~/features/events/events-page-actions.server";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { TicketActions } from "~/features/tickets/TicketActions";
import { refundedText } from "~/features/tickets/tickets.messages";
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

/** An event as screen readers hear it in a control's or region's name: its title and date, as two events may share a title. */
function eventName(event: { title: string; date: string }): string {
  return `${event.title}, ${formatEventDate(event.date)}`;
}

/** The venue as one line of text (one text node for React to write, not three). */
const VENUE_LINE = `${VENUE.name}, ${VENUE_ADDRESS}`;

function TimeAndPlace({ event, directions }: { event: ListedEvent; directions: string }) {
  const { venueOpens, gameStarts, arriveBy } = event.times;
  return (
    <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
      <dt className="text-dust">Venue opens</dt>
      <dd>
        <time dateTime={venueOpens.iso}>{venueOpens.text}</time>
      </dd>
      <dt className="text-dust">Game starts</dt>
      <dd>
        <time dateTime={gameStarts.iso}>{gameStarts.text}</time>; arrive by{" "}
        <time dateTime={arriveBy.iso}>{arriveBy.text}</time>
      </dd>
      <dt className="text-dust">Place</dt>
      <dd>
        <address className="not-italic">{VENUE_LINE}</address>
        <span className="flex flex-wrap gap-x-4">
          <a href={directions} target="_blank" rel="noopener noreferrer">
            Directions<span className="sr-only">{` to ${VENUE.name} (opens in a new tab)`}</span>
          </a>
          <Link to="/locations">
            Venue details<span className="sr-only">{` for ${VENUE.name}`}</span>
          </Link>
        </span>
      </dd>
    </dl>
  );
}

const REGISTRATION: Record<MemberEventStatus["registration"], string> = {
  registered: "Registered",
  unpaid: "On the list; payment not recorded",
  "not registered": "Not registered",
};

/** The signed-in member's own status for one event. */
function MyStatus({ event }: { event: ListedEvent }) {
  const { status } = event;
  const headingId = `status-${event.id}`;
  return (
    <section aria-labelledby={headingId} className="border-t border-timber pt-4">
      <h3 id={headingId} className="text-xl">
        Your status<span className="sr-only">{` for ${eventName(event)}`}</span>
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-dust">Registration</dt>
        <dd>
          {status.registration !== "registered" && event.ticket?.refund
            ? refundedText(event.ticket.refund, formatClubDay)
            : REGISTRATION[status.registration]}
        </dd>
        {status.costumePhotoDue && status.registration !== "not registered" ? (
          <>
            <dt className="text-dust">Costume photo</dt>
            <dd>
              Due <time dateTime={status.costumePhotoDue}>{formatEventDate(status.costumePhotoDue)}</time>;{" "}
              <Link to="/costume">{COSTUME_STATUS_LABELS[status.costumePhoto]}</Link>
            </dd>
          </>
        ) : null}
        <dt className="text-dust">Merchant orders</dt>
        <dd>
          {`${status.orders.count === 0 ? "None" : `${countOf(status.orders.count, "order")}, ${formatDollars(status.orders.totalCents)} in all${handedOutNote(status.orders)}`} · `}
          <Link to="/merchant-orders">
            Place an order<span className="sr-only">{` for ${eventName(event)}`}</span>
          </Link>
        </dd>
        {status.pel ? (
          <>
            <dt className="text-dust">Post-event letter</dt>
            <dd>{status.pel === "sent" ? "Sent" : <PelDue event={event} />}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Whether staff have given the member their goods at the event: "; handed out" once all are. */
function handedOutNote(orders: MemberEventStatus["orders"]): string {
  if (orders.handedOut === 0) return "";
  return orders.handedOut === orders.count ? "; handed out" : `; ${orders.handedOut} of ${orders.count} handed out`;
}

function PelDue({ event }: { event: { title: string; date: string } }) {
  return (
    <>
      <strong className="text-brass">PEL due</strong>
      {" · "}
      <Link to="/pels">
        Write your post-event letter<span className="sr-only">{` for ${eventName(event)}`}</span>
      </Link>
    </>
  );
}

export default function Events({ loaderData, actionData }: Route.ComponentProps) {
  const { events, lettersDue, directions, feed } = loaderData;
  const sending = useNavigation().formData?.get("intent");
  const renewing = sending === "renew_feed";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Upcoming Events</h1>
      <hr className="divider my-6" />
      {loaderData.isManager ? (
        <p className="mb-6 text-center">
          <Link to="/events/manage">Add, change or cancel events</Link>
        </p>
      ) : null}
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
            <li key={event.id} className="panel flex flex-col gap-4">
              <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
                <div>
                  <h2 className="text-2xl">{event.title}</h2>
                  <p className="mt-1 flex items-center gap-2 text-dust">
                    <Icon name="calendar-days" className="size-5 text-rust" />
                    <time dateTime={event.date}>{formatEventDate(event.date)}</time>
                  </p>
                </div>
                <div className="flex flex-col gap-2 sm:items-end">
                  {event.ticket ? (
                    <TicketActions
                      offer={event.ticket}
                      eventId={event.id}
                      eventName={eventName(event)}
                      busy={sending === "buy_ticket" || sending === "cancel_checkout"}
                    />
                  ) : null}
                  {event.ticketUrl ? (
                    <a href={event.ticketUrl} target="_blank" rel="noopener noreferrer" className="btn btn-primary">
                      <Icon name="ticket" className="size-5" />
                      Purchase Ticket<span className="sr-only">{` for ${eventName(event)} (opens in a new tab)`}</span>
                    </a>
                  ) : null}
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
