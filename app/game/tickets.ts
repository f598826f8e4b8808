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
 * Stripe refuses an expiry less than 30 minutes after it creates the session, by its own clock:
 * the site asks for this much more, since its "now" is taken before the database step and the
 * request's trip.
 */
export const CHECKOUT_EXPIRY_MARGIN_SECONDS = 120;

/**
 * Where a purchase stands: held while the member is at Stripe's checkout, paid (and the member
 * registered), refunding (a refund asked of Stripe, again until it answers), refunded (kept for
 * the club's records), released (the checkout expired or was left: the place is free again), or
 * failed (a bank debit that did not go through: the place is free again).
 */
export const TICKET_STATUSES = ["held", "paid", "refunding", "refunded", "released", "failed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * Why a ticket was refunded: a manager refunded it on the site, someone refunded it in Stripe's
 * dashboard, or the site refunded a payment it could not give a place to (it arrived after its
 * hold ended on a full event, for a cancelled event, or for a deleted account).
 */
export const REFUND_REASONS = ["manager", "stripe", "event-full", "event-cancelled", "account-deleted"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * What became of an event Stripe sent: recorded, ignored (a kind the site does not act on), kept
 * for a manager because it names no purchase the site knows (unmatched), or because it names one
 * but does not agree with it: another amount, currency or checkout (mismatch, registering nobody).
 */
export const STRIPE_EVENT_OUTCOMES = ["recorded", "ignored", "unmatched", "mismatch"] as const;
export type StripeEventOutcome = (typeof STRIPE_EVENT_OUTCOMES)[number];

/** The outcomes a manager is shown to look into. */
export const STRIPE_EVENTS_TO_LOOK_AT = ["unmatched", "mismatch"] as const satisfies readonly StripeEventOutcome[];
