import { and, eq, inArray, lte } from "drizzle-orm";
import { formatEventDate } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { TICKET_CURRENCY, TICKET_HOLD_MINUTES } from "~/game/tickets";
import { database, type Transaction } from "~/platform/db/client.server";
import { eventAttendance, events, ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { placesTaken } from "./places.server";
import { stripeClient } from "./stripe.server";

export type CheckoutStart =
  | { outcome: "checkout"; url: string }
  | { outcome: "registered" }
  | { outcome: "sold-out" }
  | { outcome: "not-for-sale" }
  | { outcome: "players-only" }
  | { outcome: "preparing" }
  | { outcome: "failed" };

type Reserved = { outcome: "reserved"; purchaseId: string; event: { id: string; title: string; date: string; priceCents: number }; holdExpiresAt: Date } | Exclude<CheckoutStart, { outcome: "failed" }>;

/**
 * Holds a place for the member in one transaction, the event's row locked so two buyers of
 * the last place are taken in turn: an event with N places never has more than N paid and
 * held together.
 */
async function reservePlace(user: SessionUser, eventId: string, now: Date): Promise<Reserved> {
  const db = await database();
  return db.transaction(async (tx: Transaction) => {
    const [event] = await tx
      .select({ id: events.id, title: events.title, date: events.date, priceCents: events.ticketPriceCents, places: events.ticketPlaces })
      .from(events)
      .where(and(eq(events.id, eventId), eq(events.status, "future")))
      .for("update");
    if (!event || event.priceCents === null) return { outcome: "not-for-sale" as const };
    const [registered] = await tx.select({ id: eventAttendance.id }).from(eventAttendance).where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, user.id), eq(eventAttendance.paymentStatus, "paid")));
    if (registered) return { outcome: "registered" as const };
    const [live] = await tx.select().from(ticketPurchases).where(and(eq(ticketPurchases.eventId, event.id), eq(ticketPurchases.userId, user.id), inArray(ticketPurchases.status, ["held", "paid"])));
    if (live?.status === "paid") return { outcome: "registered" as const };
    if (live && live.holdExpiresAt > now) return live.checkoutUrl ? { outcome: "checkout" as const, url: live.checkoutUrl } : { outcome: "preparing" as const };
    // An expired hold whose expiry Stripe has not told us of yet: its place is free again.
    if (live) await tx.update(ticketPurchases).set({ status: "released" }).where(and(eq(ticketPurchases.id, live.id), lte(ticketPurchases.holdExpiresAt, now)));
    if (event.places !== null && (await placesTaken(tx, event.id, now)) >= event.places) return { outcome: "sold-out" as const };
    const holdExpiresAt = new Date(now.getTime() + TICKET_HOLD_MINUTES * 60_000);
    const [purchase] = await tx.insert(ticketPurchases).values({ userId: user.id, eventId: event.id, status: "held", holdExpiresAt }).returning({ id: ticketPurchases.id });
    return { outcome: "reserved" as const, purchaseId: purchase!.id, event: { id: event.id, title: event.title, date: event.date, priceCents: event.priceCents }, holdExpiresAt };
  });
}

/**
 * "Buy a ticket": holds a place and opens a Stripe Checkout Session for it, or says why not.
 * A second press while the checkout is open sends the member to the same checkout.
 */
export async function startCheckout(user: SessionUser, eventId: string, siteUrl: string, now = new Date()): Promise<CheckoutStart> {
  const stripe = await stripeClient();
  if (!stripe) return { outcome: "not-for-sale" };
  // Cast and staff are registered by the managers; tickets are for accepted players.
  if (user.role !== "player") return { outcome: "players-only" };
  // A form sent by hand may name anything: only an event's id can name an event.
  if (!isUuid(eventId)) return { outcome: "not-for-sale" };
  const reserved = await reservePlace(user, eventId, now);
  if (reserved.outcome !== "reserved") return reserved;
  const db = await database();
  try {
    const metadata = { purchase_id: reserved.purchaseId, member_id: user.id, event_id: reserved.event.id };
    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [{ quantity: 1, price_data: { currency: TICKET_CURRENCY, unit_amount: reserved.event.priceCents, product_data: { name: `Hopewell ticket: ${reserved.event.title}, ${formatEventDate(reserved.event.date)}` } } }],
        client_reference_id: `${user.id}:${reserved.event.id}`,
        customer_email: user.email,
        metadata,
        payment_intent_data: { metadata },
        // Stripe's expiry is the hold's: the place is kept exactly as long as the checkout is open.
        expires_at: Math.floor(reserved.holdExpiresAt.getTime() / 1000),
        success_url: `${siteUrl}/events/ticket?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${siteUrl}/events`,
      },
      // One purchase makes one session, however often the request is sent again.
      { idempotencyKey: `hopewell-ticket-${reserved.purchaseId}` },
    );
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a page to send the member to");
    await db.update(ticketPurchases).set({ checkoutSessionId: session.id, checkoutUrl: session.url }).where(eq(ticketPurchases.id, reserved.purchaseId));
    return { outcome: "checkout", url: session.url };
  } catch (error) {
    // The place is given back: nothing was charged, and the member can try again.
    await db.update(ticketPurchases).set({ status: "released" }).where(eq(ticketPurchases.id, reserved.purchaseId));
    logger.error({ err: error, purchase: reserved.purchaseId }, "Stripe Checkout Session could not be made");
    return { outcome: "failed" };
  }
}

/** What the member sees of their purchase coming back from Stripe's checkout page. */
export async function purchaseAfterCheckout(user: SessionUser, sessionId: string) {
  const db = await database();
  const [purchase] = await db
    .select({ status: ticketPurchases.status, amountCents: ticketPurchases.amountCents, title: events.title, date: events.date })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .where(and(eq(ticketPurchases.checkoutSessionId, sessionId), eq(ticketPurchases.userId, user.id)));
  return purchase;
}
