import { Form } from "react-router";
import { Icon } from "~/components/Icon";
import { buyTicketLabel, type TicketOffer } from "./tickets.messages";

/** An event's ticket on the events page: a button that opens Stripe's checkout, the ticket the member has, or none left. */
export function TicketButton({ offer, eventId, eventName, busy }: { offer: TicketOffer; eventId: string; eventName: string; busy: boolean }) {
  if (offer.state === "have") {
    return (
      <p className="flex items-center gap-2 font-semibold text-sage" data-testid="ticket-held">
        <Icon name="ticket" className="size-5" />
        You have a ticket<span className="sr-only">{` for ${eventName}`}</span>
      </p>
    );
  }
  if (offer.state === "sold-out") {
    return (
      <p className="font-semibold text-dust">
        Sold out<span className="sr-only">{`: ${eventName}`}</span>
      </p>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="buy_ticket" />
      <input type="hidden" name="eventId" value={eventId} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        <Icon name="ticket" className="size-5" />
        {buyTicketLabel(offer.priceCents)}
        <span className="sr-only">{` for ${eventName}`}</span>
      </button>
    </Form>
  );
}
