import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { Link } from "~/components/Link";
import { formatEventDate } from "~/lib/dates";

/** An event a manager is about to cancel, with the tickets paid for it on the site. */
export type EventToCancel = { id: string; title: string; date: string; paidTickets: number };

/**
 * What cancelling does, said before it is done: the event leaves the members' page and its
 * tickets go off sale; paid tickets are not refunded by themselves, and nobody is told.
 */
export function cancelEventQuestion(event: EventToCancel): string {
  const paid = event.paidTickets;
  return [
    `Cancel “${event.title}” on ${formatEventDate(event.date)}? It leaves the members' events page and its tickets go off sale.`,
    paid > 0
      ? `${paid === 1 ? "1 ticket was" : `${paid} tickets were`} paid for on the site: the site refunds none by itself, so refund ${paid === 1 ? "it" : "them"} afterwards from the attendance page.`
      : "",
    "The site does not tell the members on its list: tell them yourself.",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The step between "Cancel event" and cancelling it, in the event's place on the manage page
 * (`?cancel=<id>`): the question in words, the red button that does it, and a way back. A page of
 * its own rather than the browser's dialog, so it asks without JavaScript too.
 */
export function CancelEventConfirm({ event, busy }: { event: EventToCancel; busy: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by a link that is now gone: the keyboard and screen readers go to the question.
  useEffect(() => heading.current?.focus(), []);
  const titleId = `cancel-${event.id}`;
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-md border-2 border-blood p-4"
      data-testid="cancel-event-confirm"
    >
      <h3 id={titleId} ref={heading} tabIndex={-1} className="text-xl">
        Cancel this event?
      </h3>
      <p>{cancelEventQuestion(event)}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post" action="/events/manage">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="id" value={event.id} />
          <button type="submit" className="btn btn-danger" disabled={busy}>
            Yes, cancel the event<span className="sr-only">{` ${event.title}`}</span>
          </button>
        </Form>
        <Link to="/events/manage" preventScrollReset className="btn btn-secondary">
          Keep it
        </Link>
      </div>
    </section>
  );
}
