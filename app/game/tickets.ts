/**
 * Tickets to events, sold through Stripe Checkout (app/features/tickets/). Prices are kept in
 * cents, in the club's one currency, so totals are exact.
 */

/** The club plays in New England and charges in US dollars. */
export const TICKET_CURRENCY = "usd";

/** Stripe refuses a charge under 50 cents; no event costs more than this. */
export const TICKET_PRICE_MIN_CENTS = 50;
export const TICKET_PRICE_MAX_CENTS = 100_000;

/** The most places an event can have (the venue's cabins hold far fewer). */
export const TICKET_PLACES_MAX = 1_000;

/**
 * How long a Checkout Session holds a place: Stripe's shortest expiry. A payment that
 * completes after its hold was released, for a full event, is refunded.
 */
export const TICKET_HOLD_MINUTES = 30;

/**
 * Where a purchase stands: held while the member is at Stripe's checkout, paid (and the member
 * registered), refunding (paid after its hold ended, for an event that had filled: the refund is
 * asked of Stripe, again until it answers), refunded (kept for the club's records), or released
 * (the checkout expired or was abandoned: the place is free again).
 */
export const TICKET_STATUSES = ["held", "paid", "refunding", "refunded", "released"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** What became of an event Stripe sent: recorded, ignored (a kind the site does not act on), or kept for a manager (it names no purchase the site knows). */
export const STRIPE_EVENT_OUTCOMES = ["recorded", "ignored", "unmatched"] as const;
export type StripeEventOutcome = (typeof STRIPE_EVENT_OUTCOMES)[number];
