import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createEvent } from "~/platform/db/factories";
import { auditLog, eventAttendance, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";
import { ticketSteps, withStripeStandIn } from "../../helpers/stripe-stand-in";

const db = withTestDatabase();
const WEBHOOK_SECRET = "whsec_hopewell_checks_test";
const signer = new Stripe("sk_test_hopewell_signer").webhooks;

describe("tickets: what members see of their places, and what the webhook will not take on trust", () => {
  // The stand-in first, so the server starts with tickets on sale (its page policy is set at start).
  const standIn = withStripeStandIn(WEBHOOK_SECRET);
  const app = withAppServer();
  const { buy, notify } = ticketSteps(app, standIn, WEBHOOK_SECRET);

  async function deliver(payload: string, signature: string) {
    return fetch(`${app().url}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
      body: payload,
    });
  }
  const page = async (path: string, cookie: string) =>
    visibleText(await (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text());

  it("asks Stripe for an expiry at least 30 minutes after Stripe makes the session, and holds the place exactly that long", async () => {
    const event = await createEvent(db(), {
      title: "Long Wait",
      date: "2029-09-14",
      status: "future",
      ticketPriceCents: 4000,
    });
    const player = await signedInMember("player");
    const sessionId = await buy(event.id, player.cookie);
    const session = standIn().sessions.get(sessionId)!;
    expect(session.expires_at - session.created).toBeGreaterThanOrEqual(30 * 60);
    const [purchase] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(purchase!.holdExpiresAt.getTime()).toBe(session.expires_at * 1000);
    expect(purchase!.priceCents).toBe(4000);
  });

  it("offers a member their own open checkout again, ends it when they come back from Stripe's page, and says when held places may come back", async () => {
    const event = await createEvent(db(), {
      title: "Last Seat",
      date: "2029-10-12",
      status: "future",
      ticketPriceCents: 4000,
      ticketPlaces: 1,
    });
    const buyer = await signedInMember("player");
    const other = await signedInMember("player");
    expect(await page("/events", other.cookie)).toContain("1 of 1 place left");
    const sessionId = await buy(event.id, buyer.cookie);

    // Back in the browser: the events page offers the checkout, not "Sold out".
    const mine = await (await fetch(`${app().url}/events`, { headers: { Cookie: buyer.cookie } })).text();
    expect(visibleText(mine)).toMatch(
      /Your place is held until \d{1,2}:\d{2} [AP]M E[SD]T\s*while you pay\. Continue to payment for Last Seat/,
    );
    expect(mine).toContain(`href="${standIn().sessions.get(sessionId)!.url}"`);
    const theirs = await page("/events", other.cookie);
    expect(theirs).toMatch(
      /Sold out\s*: Last Seat, Friday, October 12, 2029 1 place is held at checkout and comes back if not paid for: look again after \d{1,2}:\d{2} [AP]M E[SD]T\s*\./,
    );

    // Stripe's back link: the session is ended at Stripe and the place is free at once.
    const cancelUrl = new URL(standIn().sessions.get(sessionId)!.cancel_url);
    expect(cancelUrl.pathname).toBe("/events/ticket/cancel");
    // Someone else's link cannot end the buyer's checkout.
    expect(await page(cancelUrl.pathname + cancelUrl.search, other.cookie)).toContain(
      "This checkout is not one of yours.",
    );
    expect(standIn().sessions.get(sessionId)!.status).toBe("open");
    const back = await page(cancelUrl.pathname + cancelUrl.search, buyer.cookie);
    expect(back).toContain(
      "You left Stripe's checkout: nothing was charged, and your place at Last Seat is given back.",
    );
    expect(standIn().sessions.get(sessionId)!.status).toBe("expired");
    expect(
      (
        await db()
          .select({ status: ticketPurchases.status })
          .from(ticketPurchases)
          .where(eq(ticketPurchases.checkoutSessionId, sessionId))
      )[0]!.status,
    ).toBe("released");
    expect(await page("/events", other.cookie)).toContain("1 of 1 place left");

    // Giving the place up from the events page does the same.
    const again = await buy(event.id, buyer.cookie);
    const purchaseId = (
      await db()
        .select({ id: ticketPurchases.id })
        .from(ticketPurchases)
        .where(eq(ticketPurchases.checkoutSessionId, again))
    )[0]!.id;
    const givenUp = await postForm(app().url, "/events", { intent: "cancel_checkout", purchaseId }, buyer.cookie);
    expect(visibleText(await givenUp.text())).toContain("your place at Last Seat is given back");
    expect(standIn().sessions.get(again)!.status).toBe("expired");
  });

  it("has a stand-in that refuses what Stripe refuses: an unknown parameter, and an expiry under 30 minutes", async () => {
    const direct = async (form: Record<string, string>) => {
      const answer = await fetch(`${standIn().url}/v1/checkout/sessions`, {
        method: "POST",
        headers: { Authorization: "Bearer sk_test_direct", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
      return {
        status: answer.status,
        error: ((await answer.json()) as { error?: { message: string } }).error?.message,
      };
    };
    const valid = {
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1000",
      "line_items[0][price_data][product_data][name]": "A ticket",
      success_url: "https://example.org/ok",
      cancel_url: "https://example.org/back",
    };
    expect((await direct({ ...valid, expires_at: String(Math.floor(Date.now() / 1000) + 31 * 60) })).status).toBe(200);
    expect(await direct({ ...valid, expires_at: String(Math.floor(Date.now() / 1000) + 30 * 60 - 1) })).toEqual({
      status: 400,
      error: "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
    });
    const unknown = await direct({ ...valid, hold_my_place: "yes" });
    expect(unknown.status).toBe(400);
    expect(unknown.error).toContain("hold_my_place");
    // These two were the test's own, not the site's.
    standIn().refused.splice(0);
  });

  it("lets a form sent without scripts reach Stripe's checkout: the page's form-action allows it", async () => {
    const player = await signedInMember("player");
    const answer = await fetch(`${app().url}/events`, { headers: { Cookie: player.cookie } });
    const policy = answer.headers.get("Content-Security-Policy") ?? "";
    expect(policy.split("; ").find((directive) => directive.startsWith("form-action"))).toBe(
      `form-action 'self' ${new URL(standIn().url).origin}`,
    );
  });

  it("keeps a signed session whose amount, currency or checkout does not agree with its purchase for the managers, registering nobody", async () => {
    const event = await createEvent(db(), {
      title: "Ten Dollar Night",
      date: "2029-11-09",
      status: "future",
      ticketPriceCents: 1000,
    });
    const player = await signedInMember("player");
    const sessionId = await buy(event.id, player.cookie);
    const session = standIn().pay(sessionId);
    expect(await notify("checkout.session.completed", { ...session, amount_total: 1, currency: "jpy" })).toBe(
      "mismatch",
    );
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, player.id))).toEqual([]);

    // A paid session for another event, whose metadata names this purchase, neither registers it nor takes its checkout.
    const [purchase] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(
      await notify("checkout.session.completed", {
        ...session,
        id: "cs_test_someone_elses",
        metadata: { purchase_id: purchase!.id },
      }),
    ).toBe("mismatch");
    expect((await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, purchase!.id)))[0]).toMatchObject({
      status: "held",
      checkoutSessionId: sessionId,
    });
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, player.id))).toEqual([]);

    // The managers see each, by its id, with no table's name, and can mark it dealt with.
    const manager = await signedInMember("manager");
    const listed = await page("/attendance", manager.cookie);
    expect(listed).toContain("does not agree with its purchase");
    expect(listed).toContain("cs_test_someone_elses");
    expect(listed).not.toContain("stripe_events");
    const [kept] = await db().select().from(stripeEvents).where(eq(stripeEvents.outcome, "mismatch")).limit(1);
    const marked = await postForm(
      app().url,
      "/attendance",
      { intent: "notice_dealt_with", noticeId: kept!.id },
      manager.cookie,
    );
    expect(visibleText(await marked.text())).toContain("Marked as dealt with.");
    expect(await page("/attendance", manager.cookie)).not.toContain(kept!.id);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "ticket.notice_dealt_with"), eq(auditLog.actorId, manager.id))),
    ).toHaveLength(1);

    // The right payment still registers the member.
    expect(await notify("checkout.session.completed", session)).toBe("recorded");
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(eq(eventAttendance.userId, player.id)),
    ).toEqual([{ paymentStatus: "paid" }]);
  });

  it("refuses a signature dated more than five minutes from now in either direction", async () => {
    const payload = JSON.stringify({
      id: "evt_test_time",
      object: "event",
      type: "checkout.session.expired",
      created: 1,
      livemode: false,
      data: { object: { id: "cs_test_time", object: "checkout.session" } },
    });
    const now = Math.floor(Date.now() / 1000);
    // Ten seconds past the five minutes: the server reads its own clock a moment later, and a
    // second's tick between the two would otherwise bring "301 s ahead" within the tolerance.
    for (const timestamp of [now + 3600, now + 310, now - 310]) {
      const answer = await deliver(
        payload,
        signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }),
      );
      expect(answer.status).toBe(400);
    }
    expect(await db().select().from(stripeEvents).where(eq(stripeEvents.id, "evt_test_time"))).toEqual([]);
    expect(
      (
        await deliver(
          payload,
          signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now + 60 }),
        )
      ).status,
    ).toBe(200);
  });

  it("tells a member whose bank debit failed, on the page Stripe returns them to", async () => {
    const event = await createEvent(db(), {
      title: "Slow Bank",
      date: "2029-12-14",
      status: "future",
      ticketPriceCents: 3000,
    });
    const player = await signedInMember("player");
    const sessionId = await buy(event.id, player.cookie);
    const session = standIn().sessions.get(sessionId)!;
    await notify("checkout.session.completed", { ...session, status: "complete", payment_status: "unpaid" });
    expect(await page(`/events/ticket?session_id=${sessionId}`, player.cookie)).toContain(
      "We are confirming your payment",
    );
    await notify("checkout.session.async_payment_failed", { ...session, status: "complete", payment_status: "unpaid" });
    const after = await page(`/events/ticket?session_id=${sessionId}`, player.cookie);
    expect(after).toContain("Your payment did not go through");
    expect(after).toContain("nothing was taken and you are not registered");
    expect(after).not.toContain("nothing more is needed from you");
  });

  it("shows the payments view's times with the club's zone, and upcoming events soonest first", async () => {
    const manager = await signedInMember("manager");
    const later = await createEvent(db(), {
      title: "Zz Later Night",
      date: "2031-02-12",
      status: "future",
      ticketPriceCents: 2000,
    });
    await createEvent(db(), { title: "Zz Sooner Night", date: "2031-01-15", status: "future", ticketPriceCents: 2000 });
    const text = await page("/attendance", manager.cookie);
    expect(text.indexOf("Zz Sooner Night")).toBeLessThan(text.indexOf("Zz Later Night"));
    const player = await signedInMember("player");
    await notify("checkout.session.completed", standIn().pay(await buy(later.id, player.cookie)));
    expect(await page(`/attendance?event=${later.id}`, manager.cookie)).toMatch(
      /\$20\.00 paid \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T Paid/,
    );
    // The webhook is heard, and a key Stripe refuses is named as the operator's to fix.
    expect(await page("/attendance", manager.cookie)).toMatch(
      /Stripe's last signed notice arrived \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T\s*\./,
    );
    standIn().refuse(true, "key");
    try {
      const checked = await postForm(app().url, "/attendance", { intent: "check_stripe" }, manager.cookie);
      expect(visibleText(await checked.text())).toContain(
        "Stripe refused the site's key: STRIPE_SECRET_KEY is wrong, revoked, or lacks the rights the site needs",
      );
    } finally {
      standIn().refuse(false);
    }
  });

  it("reminds only members on an event's list of its costume photo", async () => {
    await createEvent(db(), { title: "Dress Rehearsal", date: "2030-01-11", status: "future", ticketPriceCents: 2500 });
    const player = await signedInMember("player");
    const text = await page("/events", player.cookie);
    expect(text).toContain("Dress Rehearsal");
    expect(text).not.toContain("Costume photo Due");
  });
});
