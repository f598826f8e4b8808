import { Icon } from "~/components/Icon";
import { Link } from "~/components/Link";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { formatDollars } from "~/game/merchant";
import type { ApplicationStatus } from "~/game/roles";
import { VENUE, VENUE_ADDRESS } from "~/game/setting";
import { formatClubDay, formatEventDate } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import { refundedText } from "~/features/tickets/tickets.messages";
import type { MemberEventStatus } from "./event-statuses.server";
import type { eventsPage } from "./events-page.server";

/** The parts of the members' events page (routes/events/events.tsx) about one event, and what leads the page. */

type EventsPageData = Awaited<ReturnType<typeof eventsPage>>;
export type ListedEvent = EventsPageData["events"][number];

/** An event as screen readers hear it in a control's or region's name: its title and date, as two events may share a title. */
export function eventName(event: { title: string; date: string }): string {
  return `${event.title}, ${formatEventDate(event.date)}`;
}

/** The venue as one line of text (one text node for React to write, not three). */
const VENUE_LINE = `${VENUE.name}, ${VENUE_ADDRESS}`;

export function TimeAndPlace({ event, directions }: { event: ListedEvent; directions: string }) {
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

/** The cabin the organisers gave, or that they have not yet. */
function cabinText(cabin: string | null): string {
  return cabin ? `Cabin: ${cabin}` : "Cabin not given yet";
}

/**
 * The member's registration for an event, first on its card: registered (with the cabin, and
 * the ticket bought on the site), or on the list without a payment recorded. Nothing otherwise.
 */
export function Registration({ event }: { event: ListedEvent }) {
  const { registration, cabin } = event.status;
  if (registration === "not registered") return null;
  const paid = registration === "registered";
  return (
    <div
      className={`flex flex-col gap-1 rounded-md border-2 px-4 py-2 ${paid ? "border-sage" : "border-brass"}`}
      data-testid="registration"
    >
      <p className={`flex items-center gap-2 font-bold ${paid ? "text-sage" : "text-brass"}`}>
        <Icon name={paid ? "circle-check" : "circle-alert"} className="size-5 shrink-0" />
        <span>
          {paid ? "You are registered" : "You are on the list; payment not recorded"}
          <span className="sr-only">{` for ${eventName(event)}`}</span>
        </span>
      </p>
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span className="flex items-center gap-2">
          <Icon name="tent" className="size-5 shrink-0 text-dust" />
          {cabinText(cabin)}
        </span>
        {event.receipt ? (
          <Link to={event.receipt} className="flex items-center gap-2">
            <Icon name="ticket" className="size-5 shrink-0" />
            Your ticket<span className="sr-only">{` for ${eventName(event)}`}</span>
          </Link>
        ) : null}
      </p>
    </div>
  );
}

/**
 * What the page leads with for a member registered for upcoming events: each, soonest first,
 * with the cabin and the ticket, linked to its card (on this page of the list or another).
 */
export function YourRegistrations({ registrations }: { registrations: EventsPageData["registrations"] }) {
  if (registrations.length === 0) return null;
  return (
    <section aria-labelledby="your-registrations" className="panel mb-6" data-testid="your-registrations">
      <h2 id="your-registrations" className="flex items-center gap-2 text-2xl">
        <Icon name="circle-check" className="size-6 shrink-0 text-sage" />
        You Are Registered
      </h2>
      <ul className="mt-2 flex flex-col gap-2">
        {registrations.map((event) => (
          <li key={event.id}>
            <Link to={`/events${event.page > 0 ? `?page=${event.page}` : ""}#event-${event.id}`}>{event.title}</Link>
            {", "}
            <time dateTime={event.date}>{formatEventDate(event.date)}</time>
            {` · ${cabinText(event.cabin)}${event.paid ? "" : " · payment not recorded"}`}
            {event.receipt ? (
              <>
                {" · "}
                <Link to={event.receipt}>
                  Your ticket<span className="sr-only">{` for ${eventName(event)}`}</span>
                </Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Why an applicant sees no ticket to buy, by where their application stands. */
const NOT_YET: Record<ApplicationStatus | "none", string> = {
  none: "Tickets are for accepted players. Apply to play first: once the organisers accept you, you can buy one here.",
  pending:
    "Tickets are for accepted players. Your application is with the organisers: once they accept it, you can buy one here.",
  accepted:
    "Tickets are for accepted players. Your application is accepted: you can buy one once the organisers make your account a player's.",
  rejected: "Tickets are for accepted players, and your application was not accepted.",
};

/** In place of the ticket button, for an applicant: why they cannot buy one yet, and the way there. */
export function NoTicketYet({ application }: { application: ApplicationStatus | null }) {
  return (
    <p
      className="flex max-w-xs gap-2 rounded-md border border-timber px-3 py-2 text-sm sm:max-w-sm"
      data-testid="no-ticket-yet"
    >
      <Icon name="ticket" className="mt-0.5 size-5 shrink-0 text-dust" />
      <span>
        {NOT_YET[application ?? "none"]}
        {application === null ? (
          <>
            {" "}
            <Link to="/application">Apply to play</Link>
          </>
        ) : null}
      </span>
    </p>
  );
}

const REGISTRATION: Record<MemberEventStatus["registration"], string> = {
  registered: "Registered",
  unpaid: "On the list; payment not recorded",
  "not registered": "Not registered",
};

/** The signed-in member's own status for one event. */
export function MyStatus({ event }: { event: ListedEvent }) {
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

/** A letter owed for an event, and the form opened on that event (`/pels?event=`). */
export function PelDue({ event }: { event: { id: string; title: string; date: string } }) {
  return (
    <>
      <strong className="text-brass">PEL due</strong>
      {" · "}
      <Link to={`/pels?event=${encodeURIComponent(event.id)}`}>
        Write your post-event letter<span className="sr-only">{` for ${eventName(event)}`}</span>
      </Link>
    </>
  );
}
