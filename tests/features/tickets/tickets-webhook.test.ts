import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createEvent } from "~/platform/db/factories";
import { auditLog, eventAttendance, outbox, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { createMember } from "../../helpers/members";

const db = withTestDatabase();
const WEBHOOK_SECRET = "whsec_hopewell_test_secret";
// The SDK's own signer, as Stripe signs (only its webhooks helper is used: no request leaves).
const signer = new Stripe("sk_test_hopewell_signer").webhooks;

function signed(event: object, { secret = WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  return {
    payload,
    signature: signer.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) }),
  };
}

let eventCounter = 0;
function checkoutEvent(type: string, session: Record<string, unknown>) {
  return {
    id: `evt_test_${++eventCounter}_${Date.now()}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    api_version: "2026-10-28",
    livemode: false,
    data: { object: { object: "checkout.session", ...session } },
  };
}

async function heldPurchase(priceCents = 4500) {
  const member = await createMember("player", { firstName: "Ada" });
  const event = await createEvent(db(), {
    title: "Harvest Moon",
    date: "2027-09-17",
    status: "future",
    ticketPriceCents: priceCents,
  });
  const sessionId = `cs_test_${member.id.slice(0, 8)}`;
  const [purchase] = await db()
    .insert(ticketPurchases)
    .values({
      userId: member.id,
      eventId: event.id,
      checkoutSessionId: sessionId,
      holdExpiresAt: new Date(Date.now() + 30 * 60_000),
    })
    .returning();
  const session = {
    id: sessionId,
    status: "complete",
    payment_status: "paid",
    amount_total: priceCents,
    currency: "usd",
    payment_intent: `pi_${sessionId}`,
    client_reference_id: `${member.id}:${event.id}`,
    metadata: { purchase_id: purchase!.id },
  };
  return { member, event, purchase: purchase!, session };
}

async function deliver(url: string, body: { payload: string; signature?: string }) {
  return fetch(`${url}/webhooks/stripe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(body.signature ? { "Stripe-Signature": body.signature } : {}) },
    body: body.payload,
  });
}

describe("Stripe's webhook", () => {
  const app = withAppServer({ STRIPE_SECRET_KEY: "sk_test_hopewell", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });

  it("registers the buyer once, with one receipt, however many times and however concurrently Stripe delivers the payment", async () => {
    const { member, event, purchase, session } = await heldPurchase();
    const delivery = signed(checkoutEvent("checkout.session.completed", session));
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(app().url, delivery)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));

    const attendance = await db()
      .select()
      .from(eventAttendance)
      .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, member.id)));
    expect(attendance).toHaveLength(1);
    expect(attendance[0]).toMatchObject({ paymentStatus: "paid" });
    const [paid] = await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, purchase.id));
    expect(paid).toMatchObject({
      status: "paid",
      amountCents: 4500,
      currency: "usd",
      paymentIntentId: session.payment_intent,
    });
    expect(paid!.paidAt).toBeInstanceOf(Date);
    const receipts = (await db().select().from(outbox)).filter(
      (row) => (row.payload as { to?: string }).to === member.email,
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.payload).toMatchObject({ subject: "Your ticket for Harvest Moon" });
    expect((receipts[0]!.payload as { text: string }).text).toContain(
      "Your payment of $45.00 was received: you are registered for Harvest Moon on Friday, September 17, 2027.",
    );
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "ticket.paid"), eq(auditLog.subjectId, member.id))),
    ).toHaveLength(1);
    const kept = await db().select().from(stripeEvents).where(eq(stripeEvents.purchaseId, purchase.id));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ type: "checkout.session.completed", outcome: "recorded" });
    // No customer details are kept: only the ids and amounts the site acted on.
    expect(JSON.stringify(kept[0]!.payload)).not.toContain("@");
  });

  it("refuses anything not signed by Stripe with the endpoint's secret, or signed too long ago, and records nothing", async () => {
    const { member, event, purchase, session } = await heldPurchase();
    const genuine = checkoutEvent("checkout.session.completed", session);
    const unsigned = await deliver(app().url, { payload: JSON.stringify(genuine) });
    const forged = await deliver(app().url, signed(genuine, { secret: "whsec_someone_else" }));
    const tampered = signed(genuine);
    const altered = await deliver(app().url, {
      payload: tampered.payload.replace('"amount_total":4500', '"amount_total":1'),
      signature: tampered.signature,
    });
    const replayed = await deliver(app().url, signed(genuine, { timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    for (const answer of [unsigned, forged, altered, replayed]) {
      expect(answer.status).toBe(400);
      expect(await answer.text()).toBe("The signature does not match.");
    }
    expect(
      await db()
        .select()
        .from(eventAttendance)
        .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, member.id))),
    ).toEqual([]);
    expect(await db().select().from(stripeEvents).where(eq(stripeEvents.id, genuine.id))).toEqual([]);
    const [still] = await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, purchase.id));
    expect(still!.status).toBe("held");
  });

  it("keeps a payment for a purchase the site does not know for a manager to look at, and answers Stripe that it has it", async () => {
    const stranger = checkoutEvent("checkout.session.completed", {
      id: "cs_test_unknown",
      status: "complete",
      payment_status: "paid",
      amount_total: 4500,
      currency: "usd",
      payment_intent: "pi_unknown",
      metadata: {},
    });
    const answer = await deliver(app().url, signed(stranger));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("unmatched");
    const [kept] = await db().select().from(stripeEvents).where(eq(stripeEvents.id, stranger.id));
    expect(kept).toMatchObject({ outcome: "unmatched", type: "checkout.session.completed" });
  });

  it("frees the place of a checkout that expired or whose bank debit failed, and waits for a bank debit's payment before registering", async () => {
    const expiring = await heldPurchase();
    expect(
      (
        await deliver(
          app().url,
          signed(
            checkoutEvent("checkout.session.expired", {
              ...expiring.session,
              status: "expired",
              payment_status: "unpaid",
            }),
          ),
        )
      ).status,
    ).toBe(200);
    const [released] = await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, expiring.purchase.id));
    expect(released!.status).toBe("released");

    const debit = await heldPurchase();
    await deliver(
      app().url,
      signed(checkoutEvent("checkout.session.completed", { ...debit.session, payment_status: "unpaid" })),
    );
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, debit.member.id))).toEqual([]);
    await deliver(app().url, signed(checkoutEvent("checkout.session.async_payment_succeeded", debit.session)));
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(eq(eventAttendance.userId, debit.member.id)),
    ).toEqual([{ paymentStatus: "paid" }]);

    // A bank debit that fails gives its place back, and the member is told to pay another way.
    const failing = await heldPurchase();
    await deliver(
      app().url,
      signed(checkoutEvent("checkout.session.completed", { ...failing.session, payment_status: "unpaid" })),
    );
    await deliver(
      app().url,
      signed(checkoutEvent("checkout.session.async_payment_failed", { ...failing.session, payment_status: "unpaid" })),
    );
    expect(
      await db()
        .select({ status: ticketPurchases.status })
        .from(ticketPurchases)
        .where(eq(ticketPurchases.id, failing.purchase.id)),
    ).toEqual([{ status: "failed" }]);
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, failing.member.id))).toEqual([]);
    const told = (await db().select().from(outbox))
      .map((row) => row.payload as { to?: string; subject?: string })
      .filter((mail) => mail.to === failing.member.email);
    expect(told.map((mail) => mail.subject)).toEqual(["Your payment for Harvest Moon did not go through"]);
  });
});
