import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { StripeEventOutcome } from "~/game/tickets";
import { audit } from "~/platform/audit.server";
import { config } from "~/platform/config.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { characters, eventAttendance, events, profiles, ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { placesTaken } from "./places.server";
import { refundedAtStripeEmail, soldOutRefundEmail, ticketReceiptEmail } from "./receipt.server";
import { stripeClient } from "./stripe.server";

/** What acting on a Stripe object did: its outcome, the purchase it was about, and a refund still to ask of Stripe. */
export type Acted = { outcome: StripeEventOutcome; purchaseId?: string; refund?: string; registered?: true };

/** The purchase a Checkout Session was made for: by its id, or by the purchase id the site put in its metadata. */
async function purchaseOf(tx: Transaction, session: Stripe.Checkout.Session) {
  const [bySession] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.checkoutSessionId, session.id)).for("update");
  if (bySession) return bySession;
  const purchaseId = session.metadata?.purchase_id;
  if (!purchaseId || !/^[0-9a-f-]{36}$/i.test(purchaseId)) return undefined;
  const [byMetadata] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.id, purchaseId)).for("update");
  return byMetadata;
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

function eventsPageUrl(): string {
  return new URL("/events", config().appUrl ?? "http://localhost:3000").toString();
}

/**
 * A paid Checkout Session: the purchase is paid and its member registered for the event, with a
 * receipt. A payment that arrives after its hold ended, for an event that has filled since, is
 * not registered: it is marked for a refund, which the caller asks of Stripe after committing.
 */
export async function recordPayment(tx: Transaction, session: Stripe.Checkout.Session, now = new Date()): Promise<Acted> {
  // A bank debit completes the session unpaid and pays later (async_payment_succeeded).
  if (session.payment_status !== "paid") return { outcome: "ignored" };
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status === "paid" || purchase.status === "refunded") return { outcome: "recorded", purchaseId: purchase.id };
  if (purchase.status === "refunding") return { outcome: "recorded", purchaseId: purchase.id, refund: purchase.id };
  const [member] = purchase.userId
    ? await tx
        .select({ id: profiles.id, email: profiles.email, firstName: profiles.firstName, characterName: characters.characterName })
        .from(profiles)
        .leftJoin(characters, eq(characters.userId, profiles.id))
        .where(eq(profiles.id, purchase.userId))
    : [];
  const [event] = await tx.select({ id: events.id, title: events.title, date: events.date, status: events.status, places: events.ticketPlaces }).from(events).where(eq(events.id, purchase.eventId)).for("update");
  if (!member || !event || event.status === "cancelled") return { outcome: "unmatched", purchaseId: purchase.id };
  const paid = { checkoutSessionId: session.id, amountCents: session.amount_total, currency: session.currency, paymentIntentId: paymentIntentId(session), paidAt: now };
  // Its hold ended (the checkout expired, or its place was given back): only a free place takes it.
  if (purchase.status === "released" && event.places !== null && (await placesTaken(tx, event.id, now)) >= event.places) {
    await tx.update(ticketPurchases).set({ ...paid, status: "refunding" }).where(eq(ticketPurchases.id, purchase.id));
    return { outcome: "recorded", purchaseId: purchase.id, refund: purchase.id };
  }
  await tx.update(ticketPurchases).set({ ...paid, status: "paid" }).where(eq(ticketPurchases.id, purchase.id));
  const registered = await tx
    .insert(eventAttendance)
    .values({ eventId: event.id, userId: member.id, paymentStatus: "paid", characterName: member.characterName })
    .onConflictDoNothing({ target: [eventAttendance.userId, eventAttendance.eventId] })
    .returning({ id: eventAttendance.id });
  // Registered already (a manager added them by hand): the existing row is marked paid.
  if (registered.length === 0) await tx.update(eventAttendance).set({ paymentStatus: "paid" }).where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, member.id)));
  await audit(tx, { actorId: null, action: "ticket.paid", subjectId: member.id, details: { eventId: event.id, purchaseId: purchase.id, amountCents: session.amount_total, checkoutSessionId: session.id } });
  await queueEmail(tx, ticketReceiptEmail({ to: member.email, firstName: member.firstName, eventTitle: event.title, eventDate: event.date, amountCents: session.amount_total ?? 0, eventsUrl: eventsPageUrl() }));
  return { outcome: "recorded", purchaseId: purchase.id, registered: true };
}

/** A Checkout Session that expired, or whose bank debit failed, frees the place it held. */
export async function releaseHold(tx: Transaction, session: Stripe.Checkout.Session): Promise<Acted> {
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status === "held") await tx.update(ticketPurchases).set({ status: "released" }).where(eq(ticketPurchases.id, purchase.id));
  return { outcome: "recorded", purchaseId: purchase.id };
}

/**
 * A refund made at Stripe (its dashboard) of a paid ticket: the ticket is marked refunded and
 * kept, the member stays on the event's list marked unpaid for the managers to decide, and the
 * managers are told. A refund the site asked for itself is already recorded.
 */
export async function recordRefund(tx: Transaction, charge: Stripe.Charge, now = new Date()): Promise<Acted> {
  const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!intent) return { outcome: "unmatched" };
  const [purchase] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.paymentIntentId, intent)).for("update");
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status !== "paid") return { outcome: "recorded", purchaseId: purchase.id };
  await tx.update(ticketPurchases).set({ status: "refunded", refundedAt: now }).where(eq(ticketPurchases.id, purchase.id));
  if (purchase.userId) {
    await tx.update(eventAttendance).set({ paymentStatus: "unpaid" }).where(and(eq(eventAttendance.eventId, purchase.eventId), eq(eventAttendance.userId, purchase.userId)));
  }
  await audit(tx, { actorId: null, action: "ticket.refunded", subjectId: purchase.userId, details: { eventId: purchase.eventId, purchaseId: purchase.id, amountRefundedCents: charge.amount_refunded, reason: "refunded at Stripe" } });
  const [event] = await tx.select({ title: events.title, date: events.date }).from(events).where(eq(events.id, purchase.eventId));
  const managers = await tx.select({ email: profiles.email }).from(profiles).where(and(eq(profiles.role, "manager"), eq(profiles.banned, false)));
  for (const manager of managers) await queueEmail(tx, refundedAtStripeEmail({ to: manager.email, eventTitle: event?.title ?? "an event", eventDate: event?.date, amountCents: charge.amount_refunded }));
  return { outcome: "recorded", purchaseId: purchase.id };
}

/**
 * Asks Stripe to refund a payment that could not be given a place (status refunding), then
 * records the refund and tells the member why. Stripe's idempotency key makes a retry (by the
 * reconciliation job, after a failure here) the same refund. False when Stripe did not answer.
 */
export async function settleRefund(purchaseId: string, now = new Date()): Promise<boolean> {
  const stripe = await stripeClient();
  const db = await database();
  const [purchase] = await db.select().from(ticketPurchases).where(and(eq(ticketPurchases.id, purchaseId), eq(ticketPurchases.status, "refunding")));
  if (!stripe || !purchase?.paymentIntentId) return false;
  try {
    await stripe.refunds.create({ payment_intent: purchase.paymentIntentId, metadata: { purchase_id: purchase.id, reason: "event full" } }, { idempotencyKey: `hopewell-refund-${purchase.id}` });
  } catch (error) {
    logger.error({ err: error, purchase: purchase.id }, "Stripe refund could not be made; the reconciliation job asks again");
    return false;
  }
  await db.transaction(async (tx: Transaction) => {
    const settled = await tx.update(ticketPurchases).set({ status: "refunded", refundedAt: now }).where(and(eq(ticketPurchases.id, purchase.id), eq(ticketPurchases.status, "refunding"))).returning({ id: ticketPurchases.id });
    if (settled.length === 0) return;
    await audit(tx, { actorId: null, action: "ticket.refunded", subjectId: purchase.userId, details: { eventId: purchase.eventId, purchaseId: purchase.id, amountRefundedCents: purchase.amountCents, reason: "event full" } });
    const [member] = purchase.userId ? await tx.select({ email: profiles.email, firstName: profiles.firstName }).from(profiles).where(eq(profiles.id, purchase.userId)) : [];
    const [event] = await tx.select({ title: events.title, date: events.date }).from(events).where(eq(events.id, purchase.eventId));
    if (member && event) await queueEmail(tx, soldOutRefundEmail({ to: member.email, firstName: member.firstName, eventTitle: event.title, eventDate: event.date, amountCents: purchase.amountCents ?? 0, eventsUrl: eventsPageUrl() }));
  });
  return true;
}
