import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { config } from "~/platform/config.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { stripeEvents } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { type Acted, recordPayment, recordRefund, releaseHold, settleRefund } from "./payments.server";
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
  const stripe = await stripeClient();
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
  const result = await db.transaction(async (tx: Transaction): Promise<Acted | undefined> => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, outcome: "ignored", payload: summary(event) })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id });
    if (!fresh) return undefined;
    const acted = await actOn(tx, event);
    await tx.update(stripeEvents).set({ outcome: acted.outcome, purchaseId: acted.purchaseId ?? null }).where(eq(stripeEvents.id, event.id));
    return acted;
  });
  // A payment that found no place is refunded once the event is kept (a failure is retried by the reconciliation job).
  if (result?.refund) await settleRefund(result.refund);
  const outcome = result?.outcome ?? "already received";
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

async function actOn(tx: Transaction, event: Stripe.Event): Promise<Acted> {
  if (PAID_EVENTS.has(event.type)) return recordPayment(tx, event.data.object as Stripe.Checkout.Session);
  // An expired checkout, or a bank debit that failed, frees the place it held.
  if (event.type === "checkout.session.expired" || event.type === "checkout.session.async_payment_failed") return releaseHold(tx, event.data.object as Stripe.Checkout.Session);
  if (event.type === "charge.refunded") return recordRefund(tx, event.data.object as Stripe.Charge);
  return { outcome: "ignored" };
}
