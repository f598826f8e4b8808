import { formatDollars } from "~/game/merchant";
import type { RefundReason } from "~/game/tickets";
import { countOf } from "~/lib/plural";

/** A refund of the member's ticket for one event: when (ISO) and how much. */
export type TicketRefund = { at: string; cents: number | null };

/**
 * What the events page offers a member for one event: a ticket to buy (with the places left on a
 * limited event), the checkout they left open, the ticket they have, or none left (with the
 * places held at checkout that may come back, and when the first hold ends). `refund` is their
 * last refunded ticket for it, if any.
 */
export type TicketOffer = { priceCents: number; places: number | null; refund: TicketRefund | null } & (
  | { state: "buy"; placesLeft: number | null }
  | { state: "have" }
  | { state: "checkout"; checkout: { url: string; purchaseId: string; until: string } }
  | { state: "sold-out"; heldAtCheckout: number; firstHoldEnds: string | null }
);

/** What the events page and the page after Stripe's checkout say about tickets. */
export const TICKET_MESSAGES = {
  registered: "You have a ticket for this event.",
  "sold-out": "This event is sold out.",
  "not-for-sale": "Tickets for this event are not sold on the site.",
  "players-only": "Tickets are for accepted players: the organisers register cast and staff.",
  preparing: "Your checkout is being prepared: press Buy a ticket again in a moment.",
  failed: "Stripe could not be reached, and nothing was charged. Please try again in a few minutes.",
  paid: "Payment received: you are registered",
  confirming: "We are confirming your payment",
  confirmingHint:
    "Stripe tells the site of each payment within moments. Refresh this page to see it; nothing more is needed from you.",
  refunded: "Your payment was refunded",
  refunding: "Your payment is being refunded",
  debitFailed: "Your payment did not go through",
  debitFailedHint:
    "Your bank did not complete the payment, so nothing was taken and you are not registered. To attend, buy a ticket again from the events page, by card or from another account.",
  checkoutEnded: "This checkout ended without a payment",
  checkoutEndedHint: "Nothing was charged. If you still want to come, buy a ticket from the events page.",
  unknownCheckout: "This checkout is not one of yours. Your tickets are on the events page.",
  cancelled: (title: string) =>
    `You left Stripe's checkout: nothing was charged, and your place at ${title} is given back.`,
  cancelPaid: "That checkout was paid: your ticket is below.",
  cancelFailed:
    "Stripe could not be reached to end your checkout. Nothing was charged; your place is held until the checkout ends by itself.",
  unmatched: (count: number) =>
    `Stripe told the site of ${countOf(count, "payment event")} that the site could not act on: ${count === 1 ? "it names" : "each names"} no purchase the site knows, or does not agree with the purchase it names. Look ${count === 1 ? "it" : "each"} up in Stripe's dashboard by its id, then mark it dealt with.`,
  dealtWith: "Marked as dealt with.",
  keyRefused:
    "Stripe refused the site's key: STRIPE_SECRET_KEY is wrong, revoked, or lacks the rights the site needs (Checkout Sessions and Refunds). The operators' guide says how to set it.",
} as const;

/** Why the member's payment came back, as the page after checkout and the events page say it. */
export const REFUND_REASON_WORDS: Record<RefundReason, string> = {
  manager: "The organisers refunded your ticket, and your place was given up.",
  stripe: "Your ticket was refunded through Stripe. The organisers will be in touch about your place.",
  "event-full":
    "Your payment arrived after your checkout's hold on a place had ended, and the event had filled by then.",
  "event-cancelled": "Your payment arrived after the event was cancelled.",
  "account-deleted": "Your payment arrived after the account was deleted.",
};

/** What "Check with Stripe now" found. */
export function checkedWithStripeMessage(done: { registered: number; refunded: number; released: number }): string {
  const found = [
    done.registered ? `${done.registered} payment${done.registered === 1 ? "" : "s"} recorded` : "",
    done.refunded ? `${done.refunded} refund${done.refunded === 1 ? "" : "s"} made` : "",
    done.released ? `${done.released} unpaid checkout${done.released === 1 ? "" : "s"} given back` : "",
  ].filter(Boolean);
  return found.length
    ? `Checked with Stripe: ${found.join(", ")}.`
    : "Checked with Stripe: everything was already recorded.";
}

export function buyTicketLabel(priceCents: number): string {
  return `Buy a ticket — ${formatDollars(priceCents)}`;
}

/** "3 of 40 places left", for an event with a limit. */
export function placesLeftText(placesLeft: number, places: number): string {
  return `${placesLeft} of ${places} ${places === 1 ? "place" : "places"} left`;
}

/** What a refund reads as beside the member's registration: "Refunded on Mar 3, 2027 ($85.00)". */
export function refundedText(refund: TicketRefund, formatDay: (at: string) => string): string {
  return `Refunded on ${formatDay(refund.at)}${refund.cents !== null ? ` (${formatDollars(refund.cents)})` : ""}`;
}
