import { formatDollars } from "~/game/merchant";

/** What the events page offers a member for one event: a ticket to buy, the one they have, or none left. */
export type TicketOffer = { priceCents: number; state: "buy" | "have" | "sold-out" };

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
  confirmingHint: "Stripe tells the site of each payment within moments. Refresh this page to see it; nothing more is needed from you.",
  unknownCheckout: "This checkout is not one of yours. Your tickets are on the events page.",
  unmatched: (count: number) =>
    `Stripe told the site of ${count === 1 ? "a payment event" : `${count} payment events`} naming no purchase it knows: look for ${count === 1 ? "it" : "them"} in Stripe's dashboard (the stripe_events table keeps their ids).`,
} as const;

/** What "Check with Stripe now" found. */
export function checkedWithStripeMessage(done: { registered: number; refunded: number; released: number }): string {
  const found = [
    done.registered ? `${done.registered} payment${done.registered === 1 ? "" : "s"} recorded` : "",
    done.refunded ? `${done.refunded} refund${done.refunded === 1 ? "" : "s"} made` : "",
    done.released ? `${done.released} unpaid checkout${done.released === 1 ? "" : "s"} given back` : "",
  ].filter(Boolean);
  return found.length ? `Checked with Stripe: ${found.join(", ")}.` : "Checked with Stripe: everything was already recorded.";
}

export function buyTicketLabel(priceCents: number): string {
  return `Buy a ticket — ${formatDollars(priceCents)}`;
}
