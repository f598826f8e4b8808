import { and, count, eq, inArray, lte } from "drizzle-orm";
import { formatEventDate } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { CHECKOUT_EXPIRY_MARGIN_SECONDS, TICKET_CURRENCY, TICKET_HOLD_MINUTES } from "~/game/tickets";
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

type Reserved =
  | {
      outcome: "reserved";
      purchaseId: string;
      event: { id: string; title: string; date: string; priceCents: number };
      holdExpiresAt: Date;
    }
  | Exclude<CheckoutStart, { outcome: "failed" }>;

/**
 * Holds a place for the member in one transaction, the event's row locked so two buyers of
 * the last place are taken in turn: an event with N places never has more than N paid and
 * held together.
 */
async function reservePlace(user: SessionUser, eventId: string, now: Date): Promise<Reserved> {
  const db = await database();
  return db.transaction(async (tx: Transaction) => {
    const [event] = await tx
      .select({
        id: events.id,
        title: events.title,
        date: events.date,
        priceCents: events.ticketPriceCents,
        places: events.ticketPlaces,
      })
      .from(events)
      .where(and(eq(events.id, eventId), eq(events.status, "future")))
      .for("update");
    if (!event || event.priceCents === null) return { outcome: "not-for-sale" as const };
    const [registered] = await tx
      .select({ id: eventAttendance.id })
      .from(eventAttendance)
      .where(
        and(
          eq(eventAttendance.eventId, event.id),
          eq(eventAttendance.userId, user.id),
          eq(eventAttendance.paymentStatus, "paid"),
        ),
      );
    if (registered) return { outcome: "registered" as const };
    const [live] = await tx
      .select()
      .from(ticketPurchases)
      .where(
        and(
          eq(ticketPurchases.eventId, event.id),
          eq(ticketPurchases.userId, user.id),
          inArray(ticketPurchases.status, ["held", "paid"]),
        ),
      );
    if (live?.status === "paid") return { outcome: "registered" as const };
    if (live && live.holdExpiresAt > now)
      return live.checkoutUrl
        ? { outcome: "checkout" as const, url: live.checkoutUrl }
        : { outcome: "preparing" as const };
    // An expired hold whose expiry Stripe has not told us of yet: its place is free again.
    if (live)
      await tx
        .update(ticketPurchases)
        .set({ status: "released" })
        .where(and(eq(ticketPurchases.id, live.id), lte(ticketPurchases.holdExpiresAt, now)));
    if (event.places !== null && (await placesTaken(tx, event.id, now)) >= event.places)
      return { outcome: "sold-out" as const };
    const holdExpiresAt = new Date(now.getTime() + (TICKET_HOLD_MINUTES * 60 + CHECKOUT_EXPIRY_MARGIN_SECONDS) * 1000);
    const [purchase] = await tx
      .insert(ticketPurchases)
      .values({ userId: user.id, eventId: event.id, status: "held", holdExpiresAt, priceCents: event.priceCents })
      .returning({ id: ticketPurchases.id });
    return {
      outcome: "reserved" as const,
      purchaseId: purchase!.id,
      event: { id: event.id, title: event.title, date: event.date, priceCents: event.priceCents },
      holdExpiresAt,
    };
  });
}

/**
 * "Buy a ticket": holds a place and opens a Stripe Checkout Session for it, or says why not.
 * A second press while the checkout is open sends the member to the same checkout.
 */
export async function startCheckout(
  user: SessionUser,
  eventId: string,
  siteUrl: string,
  now = new Date(),
): Promise<CheckoutStart> {
  const stripe = await stripeClient();
  if (!stripe) return { outcome: "not-for-sale" };
  // Cast and staff are registered by the managers; tickets are for accepted players.
  if (user.role !== "player") return { outcome: "players-only" };
  // A form sent by hand may name anything: only an event's id can name an event.
  if (!isUuid(eventId)) return { outcome: "not-for-sale" };
  const reserved = await reservePlace(user, eventId, now);
  if (reserved.outcome !== "reserved") return reserved;
  const db = await database();
  // Stripe counts its 30 minutes from when it makes the session: the expiry is taken again here,
  // after the database step, and the hold follows it if that pushed it later.
  const expiresAt = Math.max(
    reserved.holdExpiresAt.getTime(),
    Date.now() + (TICKET_HOLD_MINUTES * 60 + CHECKOUT_EXPIRY_MARGIN_SECONDS) * 1000,
  );
  try {
    const metadata = { purchase_id: reserved.purchaseId, member_id: user.id, event_id: reserved.event.id };
    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: TICKET_CURRENCY,
              unit_amount: reserved.event.priceCents,
              product_data: {
                name: `Hopewell ticket: ${reserved.event.title}, ${formatEventDate(reserved.event.date)}`,
              },
            },
          },
        ],
        client_reference_id: `${user.id}:${reserved.event.id}`,
        customer_email: user.email,
        metadata,
        payment_intent_data: { metadata },
        // Stripe's expiry is the hold's: the place is kept exactly as long as the checkout is open.
        expires_at: Math.ceil(expiresAt / 1000),
        success_url: `${siteUrl}/events/ticket?session_id={CHECKOUT_SESSION_ID}`,
        // Stripe's "back" link: the site ends the checkout and gives its place back at once.
        cancel_url: `${siteUrl}/events/ticket/cancel?purchase=${reserved.purchaseId}`,
      },
      // One purchase makes one session, however often the request is sent again.
      { idempotencyKey: `hopewell-ticket-${reserved.purchaseId}` },
    );
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a page to send the member to");
    await db
      .update(ticketPurchases)
      .set({
        checkoutSessionId: session.id,
        checkoutUrl: session.url,
        holdExpiresAt: new Date(Math.ceil(expiresAt / 1000) * 1000),
      })
      .where(eq(ticketPurchases.id, reserved.purchaseId));
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
    .select({
      status: ticketPurchases.status,
      amountCents: ticketPurchases.amountCents,
      refundedCents: ticketPurchases.refundedCents,
      refundedAt: ticketPurchases.refundedAt,
      refundReason: ticketPurchases.refundReason,
      title: events.title,
      date: events.date,
    })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .where(and(eq(ticketPurchases.checkoutSessionId, sessionId), eq(ticketPurchases.userId, user.id)));
  return purchase;
}

/**
 * Ends a Checkout Session at Stripe, so nobody can pay on it any more. True when it is ended (or
 * was already); false when Stripe could not be reached, or the session was paid meanwhile.
 */
async function expireSession(sessionId: string): Promise<boolean> {
  const stripe = await stripeClient();
  if (!stripe) return false;
  try {
    await stripe.checkout.sessions.expire(sessionId);
    return true;
  } catch (error) {
    // Stripe refuses to end a session that is no longer open: one already expired is what was asked.
    const session = await stripe.checkout.sessions.retrieve(sessionId).catch(() => undefined);
    if (session?.status === "expired") return true;
    if (!session) logger.warn({ err: error, session: sessionId }, "Stripe Checkout Session could not be ended");
    return false;
  }
}

export type CheckoutCancel =
  { outcome: "released"; title: string } | { outcome: "paid" } | { outcome: "unknown" } | { outcome: "failed" };

/**
 * The member came back from Stripe's page without paying (its back link), or gave up their place
 * on the events page: the session is ended at Stripe and the place given back. Only the member's
 * own held purchase can be named; a session paid meanwhile stays paid.
 */
export async function cancelCheckout(user: SessionUser, purchaseId: string): Promise<CheckoutCancel> {
  if (!isUuid(purchaseId)) return { outcome: "unknown" };
  const db = await database();
  const [purchase] = await db
    .select({
      id: ticketPurchases.id,
      status: ticketPurchases.status,
      sessionId: ticketPurchases.checkoutSessionId,
      title: events.title,
    })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .where(and(eq(ticketPurchases.id, purchaseId), eq(ticketPurchases.userId, user.id)));
  if (!purchase) return { outcome: "unknown" };
  if (purchase.status === "paid" || purchase.status === "refunding" || purchase.status === "refunded")
    return { outcome: "paid" };
  if (purchase.status !== "held") return { outcome: "released", title: purchase.title };
  if (purchase.sessionId && !(await expireSession(purchase.sessionId))) return { outcome: "failed" };
  await db
    .update(ticketPurchases)
    .set({ status: "released" })
    .where(and(eq(ticketPurchases.id, purchase.id), eq(ticketPurchases.status, "held")));
  return { outcome: "released", title: purchase.title };
}

/**
 * Ends the open checkouts of an event that was cancelled (or, for the reconciliation job, of
 * every cancelled event), so nobody pays for it; a payment that still arrives is refunded by the
 * webhook. Those Stripe does not answer for stay held, and the next check tries again.
 */
export async function expireOpenCheckouts(which: { eventId: string } | { cancelledEvents: true }): Promise<number> {
  if (!(await stripeClient())) return 0;
  const db = await database();
  const open = await db
    .select({ id: ticketPurchases.id, sessionId: ticketPurchases.checkoutSessionId })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .where(
      and(
        eq(ticketPurchases.status, "held"),
        "eventId" in which ? eq(ticketPurchases.eventId, which.eventId) : eq(events.status, "cancelled"),
      ),
    );
  let ended = 0;
  for (const purchase of open) {
    if (purchase.sessionId && !(await expireSession(purchase.sessionId))) continue;
    await db
      .update(ticketPurchases)
      .set({ status: "released" })
      .where(and(eq(ticketPurchases.id, purchase.id), eq(ticketPurchases.status, "held")));
    ended++;
  }
  return ended;
}

/** How many tickets for the event were paid for on the site and not refunded. */
export async function paidTicketCount(eventId: string): Promise<number> {
  const db = await database();
  const [row] = await db
    .select({ n: count() })
    .from(ticketPurchases)
    .where(and(eq(ticketPurchases.eventId, eventId), eq(ticketPurchases.status, "paid")));
  return row?.n ?? 0;
}

/**
 * What a manager who cancels an event must still do: refund its paid tickets (the site refunds
 * none by itself: the club may move the event instead). Undefined when none were paid on the site.
 */
export async function paidTicketsWarning(eventId: string): Promise<string | undefined> {
  const paid = await paidTicketCount(eventId);
  if (paid === 0) return undefined;
  return `${paid === 1 ? "1 ticket was" : `${paid} tickets were`} paid for this event on the site: refund ${paid === 1 ? "it" : "them"} from the attendance page, where each paid ticket has a Refund button.`;
}
