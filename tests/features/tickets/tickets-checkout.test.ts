import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buyTicketLabel, TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { createEvent } from "~/platform/db/factories";
import { eventAttendance, ticketPurchases } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";
import { withStripeStandIn } from "../../helpers/stripe-stand-in";

const db = withTestDatabase();
const WEBHOOK_SECRET = "whsec_hopewell_checkout_test";

describe("buying a ticket through Stripe Checkout", () => {
  const app = withAppServer();
  const standIn = withStripeStandIn(WEBHOOK_SECRET);

  const eventsPage = async (cookie: string) =>
    visibleText(await (await fetch(`${app().url}/events`, { headers: { Cookie: cookie } })).text());
  const buy = (eventId: string, cookie: string) =>
    postForm(app().url, "/events", { intent: "buy_ticket", eventId }, cookie);

  it("takes a player from Buy a ticket to Stripe's checkout and back to their registration, once the payment is confirmed", async () => {
    const event = await createEvent(db(), {
      title: "Ashes Over Hopewell",
      date: "2027-10-15",
      status: "future",
      ticketPriceCents: 8500,
      ticketUrl: "https://buy.stripe.com/test_ashes",
    });
    const player = await signedInMember("player");
    const before = await eventsPage(player.cookie);
    expect(before).toContain(`${buyTicketLabel(8500)} for Ashes Over Hopewell`);
    expect(before).toContain("Buy a ticket — $85.00");
    // The payment link gives way to the site's own checkout.
    expect(before).not.toContain("Purchase Ticket for Ashes Over Hopewell");

    const sent = await buy(event.id, player.cookie);
    expect(sent.status).toBe(302);
    const checkoutUrl = sent.headers.get("Location")!;
    expect(checkoutUrl.startsWith(`${standIn().url}/pay/cs_test_`)).toBe(true);
    const sessionId = checkoutUrl.split("/").pop()!;
    const session = standIn().sessions.get(sessionId)!;
    expect(session).toMatchObject({
      amount_total: 8500,
      currency: "usd",
      client_reference_id: `${player.id}:${event.id}`,
      customer_email: player.email,
      success_url: `${app().url}/events/ticket?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(session.product).toBe("Hopewell ticket: Ashes Over Hopewell, Friday, October 15, 2027");
    // The place is held exactly as long as Stripe keeps the checkout open (at least 30 minutes).
    const [held] = await db().select().from(ticketPurchases).where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(held).toMatchObject({ status: "held", userId: player.id, eventId: event.id });
    expect(Math.floor(held!.holdExpiresAt.getTime() / 1000)).toBe(session.expires_at);
    expect(session.expires_at - Date.now() / 1000).toBeGreaterThanOrEqual(29 * 60);

    // A second press opens the same checkout: one session, one held place.
    const again = await buy(event.id, player.cookie);
    expect(again.headers.get("Location")).toBe(checkoutUrl);
    expect(standIn().requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")).toHaveLength(1);

    // Back from Stripe before its webhook has arrived: being confirmed.
    standIn().pay(sessionId);
    const back = `${app().url}/events/ticket?session_id=${sessionId}`;
    const waiting = readable(await (await fetch(back, { headers: { Cookie: player.cookie } })).text());
    expect(waiting).toContain(TICKET_MESSAGES.confirming);
    expect(waiting).not.toContain(TICKET_MESSAGES.paid);

    const notice = standIn().event("checkout.session.completed", standIn().sessions.get(sessionId)!, WEBHOOK_SECRET);
    const delivered = await fetch(`${app().url}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": notice.signature },
      body: notice.payload,
    });
    expect(delivered.status).toBe(200);
    const confirmed = readable(await (await fetch(back, { headers: { Cookie: player.cookie } })).text());
    expect(confirmed).toContain(TICKET_MESSAGES.paid);
    expect(confirmed).toContain("$85.00 paid");
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, player.id))),
    ).toEqual([{ paymentStatus: "paid" }]);

    const after = await eventsPage(player.cookie);
    // The registration leads the event, with the page that confirmed the payment to open again.
    expect(after).toContain("You are registered for Ashes Over Hopewell");
    expect(after).toContain("Your ticket for Ashes Over Hopewell");
    expect(after).not.toContain(buyTicketLabel(8500));
    const afterHtml = await (await fetch(`${app().url}/events`, { headers: { Cookie: player.cookie } })).text();
    expect(afterHtml).toContain(`href="/events/ticket?session_id=${sessionId}"`);
    // Another member cannot read this purchase.
    const other = await signedInMember("player");
    expect(readable(await (await fetch(back, { headers: { Cookie: other.cookie } })).text())).toContain(
      TICKET_MESSAGES.unknownCheckout,
    );
  });

  it("holds the last place for the first buyer and tells the next the event is sold out", async () => {
    const event = await createEvent(db(), {
      title: "One Bunk Left",
      date: "2027-11-12",
      status: "future",
      ticketPriceCents: 5000,
      ticketPlaces: 1,
    });
    const first = await signedInMember("player");
    const second = await signedInMember("player");
    const [a, b] = await Promise.all([buy(event.id, first.cookie), buy(event.id, second.cookie)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([302, 409]);
    const refused = a.status === 409 ? a : b;
    expect(readable(await refused.text())).toContain(TICKET_MESSAGES["sold-out"]);
    expect(
      await db()
        .select()
        .from(ticketPurchases)
        .where(and(eq(ticketPurchases.eventId, event.id), eq(ticketPurchases.status, "held"))),
    ).toHaveLength(1);
    const loser = a.status === 409 ? first : second;
    expect(await eventsPage(loser.cookie)).toMatch(/Sold out\s*: One Bunk Left/);
  });

  it("answers a malformed or unknown event with the page's message, never a server error", async () => {
    const player = await signedInMember("player");
    for (const eventId of ["", "not-an-id", "-".repeat(36), "00000000-0000-0000-0000-000000000000"]) {
      const answer = await buy(eventId, player.cookie);
      expect(answer.status, eventId).toBe(409);
      expect(visibleText(await answer.text())).toContain(TICKET_MESSAGES["not-for-sale"]);
    }
  });

  it("offers tickets to players only, and gives the place back when Stripe cannot be reached", async () => {
    const event = await createEvent(db(), {
      title: "Storm Season",
      date: "2027-12-10",
      status: "future",
      ticketPriceCents: 6000,
    });
    const cast = await signedInMember("cast");
    expect(await eventsPage(cast.cookie)).not.toContain(buyTicketLabel(6000));
    const castTry = await buy(event.id, cast.cookie);
    expect(castTry.status).toBe(409);
    expect(readable(await castTry.text())).toContain(TICKET_MESSAGES["players-only"]);

    const player = await signedInMember("player");
    standIn().refuse(true);
    try {
      const failed = await buy(event.id, player.cookie);
      expect(failed.status).toBe(503);
      expect(readable(await failed.text())).toContain(TICKET_MESSAGES.failed);
    } finally {
      standIn().refuse(false);
    }
    expect(
      await db()
        .select({ status: ticketPurchases.status })
        .from(ticketPurchases)
        .where(eq(ticketPurchases.userId, player.id)),
    ).toEqual([{ status: "released" }]);
    // The member can try again at once.
    expect((await buy(event.id, player.cookie)).status).toBe(302);
  });
});
