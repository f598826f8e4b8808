import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { StripeEventOutcome } from "~/game/tickets";
import { audit } from "~/platform/audit.server";
import { config } from "~/platform/config.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { characters, eventAttendance, events, profiles, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { ticketReceiptEmail } from "./receipt.server";
import { stripeClient } from "./stripe.server";

/** What the webhook answers Stripe: 2xx once the event is kept (Stripe stops sending it), 400 for anything not signed by Stripe. */
export type WebhookAnswer = { status: 200 | 400 | 404; body: string };

/** The kinds of event that say a Checkout Session's payment arrived (card payments at once, bank debits later). */
const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/**
 * Takes one delivery of Stripe's webhook. The signature is checked on the raw body with the
 * endpoint's secret (the SDK also refuses one older than five minutes, against replays). Each
 * event is acted on once, however often and however concurrently Stripe delivers it: its id is
 * written in the same transaction as what it changes.
 */
export async function receiveStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookAnswer> {
  const stripe = stripeClient();
  const secret = config().stripe?.webhookSecret;
  if (!stripe || !secret) return { status: 404, body: "Tickets are not sold on this site." };
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    event = stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    logger.warn({ reason: error instanceof Error ? error.message : String(error) }, "Stripe webhook refused: not signed by Stripe");
    return { status: 400, body: "The signature does not match." };
  }
  const db = await database();
  const outcome = await db.transaction(async (tx: Transaction) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, outcome: "ignored", payload: summary(event) })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id });
    if (!fresh) return "already received";
    const result = await actOn(tx, event);
    await tx.update(stripeEvents).set({ outcome: result.outcome, purchaseId: result.purchaseId ?? null }).where(eq(stripeEvents.id, event.id));
    return result.outcome;
  });
  if (outcome === "unmatched") logger.warn({ event: event.id, type: event.type }, "Stripe event names no purchase the site knows: kept for a manager");
  return { status: 200, body: outcome };
}

/**
 * What the site keeps of an event: the ids and amounts it acted on, never the customer's name,
 * email or address (Stripe keeps those; the member's own are on their profile).
 */
function summary(event: Stripe.Event): Record<string, unknown> {
  const object = event.data.object as unknown as Record<string, unknown>;
  const keep = ["id", "object", "status", "payment_status", "client_reference_id", "metadata", "amount_total", "amount_refunded", "currency", "payment_intent"];
  return { id: event.id, type: event.type, created: event.created, object: Object.fromEntries(keep.filter((key) => key in object).map((key) => [key, object[key]])) };
}

type Acted = { outcome: StripeEventOutcome; purchaseId?: string };

async function actOn(tx: Transaction, event: Stripe.Event): Promise<Acted> {
  if (PAID_EVENTS.has(event.type)) return recordPayment(tx, event.data.object as Stripe.Checkout.Session);
  if (event.type === "checkout.session.expired") return releaseHold(tx, event.data.object as Stripe.Checkout.Session);
  return { outcome: "ignored" };
}

/** The purchase a Checkout Session was made for: by its id, or by the purchase id the site put in its metadata. */
async function purchaseOf(tx: Transaction, session: Stripe.Checkout.Session) {
  const [bySession] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.checkoutSessionId, session.id)).for("update");
  if (bySession) return bySession;
  const purchaseId = session.metadata?.purchase_id;
  if (!purchaseId || !/^[0-9a-f-]{36}$/i.test(purchaseId)) return undefined;
  const [byMetadata] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.id, purchaseId)).for("update");
  return byMetadata;
}

/** A paid Checkout Session: the purchase is paid and its member registered for the event, with a receipt. */
async function recordPayment(tx: Transaction, session: Stripe.Checkout.Session): Promise<Acted> {
  // A bank debit completes the session unpaid and pays later (async_payment_succeeded).
  if (session.payment_status !== "paid") return { outcome: "ignored" };
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status === "paid") return { outcome: "recorded", purchaseId: purchase.id };
  const [member] = purchase.userId
    ? await tx
        .select({ id: profiles.id, email: profiles.email, firstName: profiles.firstName, characterName: characters.characterName })
        .from(profiles)
        .leftJoin(characters, eq(characters.userId, profiles.id))
        .where(eq(profiles.id, purchase.userId))
    : [];
  const [event] = await tx.select({ id: events.id, title: events.title, date: events.date, status: events.status }).from(events).where(eq(events.id, purchase.eventId));
  if (!member || !event || event.status === "cancelled") return { outcome: "unmatched", purchaseId: purchase.id };
  await tx
    .update(ticketPurchases)
    .set({ status: "paid", checkoutSessionId: session.id, amountCents: session.amount_total, currency: session.currency, paymentIntentId: paymentIntentId(session), paidAt: new Date() })
    .where(eq(ticketPurchases.id, purchase.id));
  const registered = await tx
    .insert(eventAttendance)
    .values({ eventId: event.id, userId: member.id, paymentStatus: "paid", characterName: member.characterName })
    .onConflictDoNothing({ target: [eventAttendance.userId, eventAttendance.eventId] })
    .returning({ id: eventAttendance.id });
  // Registered already (a manager added them by hand): the existing row is marked paid.
  if (registered.length === 0) await tx.update(eventAttendance).set({ paymentStatus: "paid" }).where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, member.id)));
  await audit(tx, { actorId: null, action: "ticket.paid", subjectId: member.id, details: { eventId: event.id, purchaseId: purchase.id, amountCents: session.amount_total, checkoutSessionId: session.id } });
  const eventsUrl = new URL("/events", config().appUrl ?? "http://localhost:3000").toString();
  await queueEmail(tx, ticketReceiptEmail({ to: member.email, firstName: member.firstName, eventTitle: event.title, eventDate: event.date, amountCents: session.amount_total ?? 0, eventsUrl }));
  return { outcome: "recorded", purchaseId: purchase.id };
}

/** An expired Checkout Session frees the place it held. */
async function releaseHold(tx: Transaction, session: Stripe.Checkout.Session): Promise<Acted> {
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status === "held") await tx.update(ticketPurchases).set({ status: "released" }).where(eq(ticketPurchases.id, purchase.id));
  return { outcome: "recorded", purchaseId: purchase.id };
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}
