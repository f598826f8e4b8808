import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { config } from "~/platform/config.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { stripeEvents } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { type Acted, recordFailedDebit, recordPayment, releaseHold } from "./payments.server";
import { recordRefund, settleRefund } from "./refunds.server";
import { stripeClient } from "./stripe.server";

/** What the webhook answers Stripe: 2xx once the event is kept (Stripe stops sending it), 400 for anything not signed by Stripe. */
export type WebhookAnswer = { status: 200 | 400 | 404; body: string };

/** The kinds of event that say a Checkout Session's payment arrived (card payments at once, bank debits later). */
const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/** How far a signature's time may be from ours, either way (Stripe's SDK default, which checks only the past). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The signing time a Stripe-Signature header gives ("t=1700000000,v1=..."), in seconds. */
function signedAt(signature: string): number | undefined {
  const match = /(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature);
  return match ? Number(match[1]) : undefined;
}

/**
 * Takes one delivery of Stripe's webhook. The signature is checked on the raw body with the
 * endpoint's secret, and refused when it was made more than five minutes from now either way
 * (an old one is a replay; one dated ahead would outlive the window a replay is refused in). Each
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
    event = stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    const at = signedAt(signature);
    if (at === undefined || Math.abs(Date.now() / 1000 - at) > SIGNATURE_TOLERANCE_SECONDS)
      throw new Error("signed more than five minutes from now");
  } catch (error) {
    logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      "Stripe webhook refused: not signed by Stripe",
    );
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
    await tx
      .update(stripeEvents)
      .set({ outcome: acted.outcome, purchaseId: acted.purchaseId ?? null })
      .where(eq(stripeEvents.id, event.id));
    return acted;
  });
  // A payment that found no place is refunded once the event is kept (a failure is retried by the reconciliation job).
  if (result?.refund) await settleRefund(result.refund);
  const outcome = result?.outcome ?? "already received";
  if (outcome === "unmatched")
    logger.warn(
      { event: event.id, type: event.type },
      "Stripe event names no purchase the site knows: kept for a manager",
    );
  if (outcome === "mismatch")
    logger.warn(
      { event: event.id, type: event.type },
      "Stripe event does not agree with the purchase it names: kept for a manager",
    );
  return { status: 200, body: outcome };
}

/**
 * What the site keeps of an event: the ids and amounts it acted on, never the customer's name,
 * email or address (Stripe keeps those; the member's own are on their profile).
 */
function summary(event: Stripe.Event): Record<string, unknown> {
  const object = event.data.object as unknown as Record<string, unknown>;
  const keep = [
    "id",
    "object",
    "status",
    "payment_status",
    "client_reference_id",
    "metadata",
    "amount_total",
    "amount_refunded",
    "currency",
    "payment_intent",
  ];
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    object: Object.fromEntries(keep.filter((key) => key in object).map((key) => [key, object[key]])),
  };
}

async function actOn(tx: Transaction, event: Stripe.Event): Promise<Acted> {
  if (PAID_EVENTS.has(event.type)) return recordPayment(tx, event.data.object as Stripe.Checkout.Session);
  // An expired checkout, or a bank debit that failed, frees the place it held.
  if (event.type === "checkout.session.expired") return releaseHold(tx, event.data.object as Stripe.Checkout.Session);
  if (event.type === "checkout.session.async_payment_failed")
    return recordFailedDebit(tx, event.data.object as Stripe.Checkout.Session);
  if (event.type === "charge.refunded") return recordRefund(tx, event.data.object as Stripe.Charge);
  return { outcome: "ignored" };
}
