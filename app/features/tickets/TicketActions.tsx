import { Form } from "react-router";
import { Icon } from "~/components/Icon";
import { formatClubClockWithZone } from "~/lib/dates";
import { countOf } from "~/lib/plural";
import { buyTicketLabel, placesLeftText, type TicketOffer } from "./tickets.messages";

/**
 * An event's ticket on the events page: a button that opens Stripe's checkout (with the places
 * left), the checkout the member left open (to go back to, or give up), or none left (saying when
 * places held at checkout may come back). A ticket the member has is their registration, which
 * the page shows instead (features/events/EventParts.tsx).
 */
export function TicketActions({
  offer,
  eventId,
  eventName,
  busy,
}: {
  offer: Exclude<TicketOffer, { state: "have" }>;
  eventId: string;
  eventName: string;
  busy: boolean;
}) {
  if (offer.state === "checkout") {
    return (
      <div className="flex flex-col gap-2 sm:items-end">
        <p className="text-sm sm:text-right">
          Your place is held until{" "}
          <time dateTime={offer.checkout.until}>{formatClubClockWithZone(offer.checkout.until)}</time> while you pay.
        </p>
        <a href={offer.checkout.url} className="btn btn-primary">
          <Icon name="ticket" className="size-5" />
          Continue to payment<span className="sr-only">{` for ${eventName}`}</span>
        </a>
        <Form method="post">
          <input type="hidden" name="intent" value="cancel_checkout" />
          <input type="hidden" name="purchaseId" value={offer.checkout.purchaseId} />
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            Give up this place<span className="sr-only">{` at ${eventName}`}</span>
          </button>
        </Form>
      </div>
    );
  }
  if (offer.state === "sold-out") {
    return (
      <div className="flex flex-col gap-1 sm:items-end" data-testid="sold-out">
        <p className="font-semibold text-dust">
          Sold out<span className="sr-only">{`: ${eventName}`}</span>
        </p>
        {offer.heldAtCheckout > 0 && offer.firstHoldEnds ? (
          <p className="max-w-xs text-sm sm:text-right">
            {`${countOf(offer.heldAtCheckout, "place")} ${offer.heldAtCheckout === 1 ? "is" : "are"} held at checkout and come${offer.heldAtCheckout === 1 ? "s" : ""} back if not paid for: look again after `}
            <time dateTime={offer.firstHoldEnds}>{formatClubClockWithZone(offer.firstHoldEnds)}</time>.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Form method="post" className="flex flex-col gap-1 sm:items-end">
      <input type="hidden" name="intent" value="buy_ticket" />
      <input type="hidden" name="eventId" value={eventId} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        <Icon name="ticket" className="size-5" />
        {buyTicketLabel(offer.priceCents)}
        <span className="sr-only">{` for ${eventName}`}</span>
      </button>
      {offer.placesLeft !== null && offer.places !== null ? (
        <p className="text-sm text-dust" data-testid="places-left">
          {placesLeftText(offer.placesLeft, offer.places)}
        </p>
      ) : null}
    </Form>
  );
}
