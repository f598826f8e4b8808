import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reconcileWithStripe } from "~/features/tickets/reconcile.server";
import { createEvent } from "~/platform/db/factories";
import { auditLog, eventAttendance, outbox, ticketPurchases } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";
import { ticketSteps, withStripeStandIn } from "../../helpers/stripe-stand-in";

const db = withTestDatabase();
const WEBHOOK_SECRET = "whsec_hopewell_settling_test";

describe("ticket payments settled with Stripe: refunds, full events and missed notices", () => {
  const app = withAppServer();
  const standIn = withStripeStandIn(WEBHOOK_SECRET);
  const { buyAndPay, notify } = ticketSteps(app, standIn, WEBHOOK_SECRET);

  const mailTo = async (email: string) =>
    (await db().select().from(outbox))
      .filter((row) => (row.payload as { to?: string }).to === email)
      .map((row) => row.payload as { subject: string; text: string });

  it("refunds, and tells, a player whose payment arrived after their hold ended and another took the last place", async () => {
    const event = await createEvent(db(), {
      title: "Last Bunk",
      date: "2028-01-14",
      status: "future",
      ticketPriceCents: 7000,
      ticketPlaces: 1,
    });
    const late = await signedInMember("player");
    const prompt = await signedInMember("player");
    const lateSession = await buyAndPay(event.id, late.cookie);
    // The late player's checkout expired before Stripe told of their payment: the place is free.
    await notify("checkout.session.expired", { ...standIn().sessions.get(lateSession)!, status: "expired" });
    const promptSession = await buyAndPay(event.id, prompt.cookie);
    await notify("checkout.session.completed", standIn().sessions.get(promptSession)!);
    await notify("checkout.session.completed", standIn().sessions.get(lateSession)!);

    const registered = await db()
      .select({ userId: eventAttendance.userId })
      .from(eventAttendance)
      .where(eq(eventAttendance.eventId, event.id));
    expect(registered).toEqual([{ userId: prompt.id }]);
    const [refunded] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, lateSession));
    expect(refunded).toMatchObject({ status: "refunded", amountCents: 7000 });
    expect(standIn().refunds.map((refund) => refund.payment_intent)).toEqual([
      standIn().sessions.get(lateSession)!.payment_intent,
    ]);
    const told = await mailTo(late.email);
    expect(told.map((mail) => mail.subject)).toEqual(["Your payment for Last Bunk was refunded"]);
    expect(told[0]!.text).toContain("Your payment of $70.00 for Last Bunk");
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "ticket.refunded"), eq(auditLog.subjectId, late.id))),
    ).toHaveLength(1);
  });

  it("records a payment whose notice was lost when it checks with Stripe, once however often it checks", async () => {
    const event = await createEvent(db(), {
      title: "Quiet Wire",
      date: "2028-02-11",
      status: "future",
      ticketPriceCents: 5500,
    });
    const player = await signedInMember("player");
    await buyAndPay(event.id, player.cookie);
    // Stripe's notice never came.
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, player.id))).toEqual([]);
    const first = await reconcileWithStripe();
    expect(first?.registered).toBe(1);
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(eq(eventAttendance.userId, player.id)),
    ).toEqual([{ paymentStatus: "paid" }]);
    expect((await reconcileWithStripe())?.registered).toBe(0);
    expect((await mailTo(player.email)).filter((mail) => mail.subject === "Your ticket for Quiet Wire")).toHaveLength(
      1,
    );
  });

  it("shows managers who paid, how much and when, the total and the places left, in the page and the export, and checks with Stripe on request", async () => {
    const event = await createEvent(db(), {
      title: "Ledger Night",
      date: "2028-04-14",
      status: "future",
      ticketPriceCents: 4000,
      ticketPlaces: 3,
    });
    const manager = await signedInMember("manager");
    const cast = await signedInMember("cast");
    const buyer = await signedInMember("player");
    const sessionId = await buyAndPay(event.id, buyer.cookie);
    await notify("checkout.session.completed", standIn().sessions.get(sessionId)!);

    const page = visibleText(
      await (await fetch(`${app().url}/attendance?event=${event.id}`, { headers: { Cookie: manager.cookie } })).text(),
    );
    expect(page).toContain("Tickets $40.00 · $40.00 taken · 2 of 3 places left");
    expect(page).toContain(`${buyer.firstName} ${buyer.lastName} $40.00`);
    expect(page).toContain("Check with Stripe now");
    const csv = (
      await (await fetch(`${app().url}/attendance/${event.id}/csv`, { headers: { Cookie: manager.cookie } })).text()
    )
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(csv[0]).toBe("Last Name,First Name,Character Name,Cabin,Payment,Amount,Paid At");
    expect(csv[1]).toMatch(
      new RegExp(
        `^${buyer.lastName},${buyer.firstName},No character,Not assigned,Ticket bought on the site,\\$40\\.00,"`,
      ),
    );

    // Cast read the attendance, not the payments, and cannot ask Stripe.
    const castPage = visibleText(
      await (await fetch(`${app().url}/attendance?event=${event.id}`, { headers: { Cookie: cast.cookie } })).text(),
    );
    expect(castPage).not.toContain("$40.00 taken");
    expect(castPage).not.toContain("Check with Stripe now");
    expect((await postForm(app().url, "/attendance", { intent: "check_stripe" }, cast.cookie)).status).toBe(403);
    expect(
      (
        await fetch(`${app().url}/attendance/${event.id}/csv`, { headers: { Cookie: cast.cookie } }).then((r) =>
          r.text(),
        )
      )
        .replace(/^\uFEFF/, "")
        .split("\n")[0],
    ).toBe("Last Name,First Name,Character Name,Cabin");

    const checked = await postForm(app().url, "/attendance", { intent: "check_stripe" }, manager.cookie);
    expect(checked.status).toBe(200);
    expect(visibleText(await checked.text())).toContain("Checked with Stripe: everything was already recorded.");
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "ticket.check"), eq(auditLog.actorId, manager.id))),
    ).toHaveLength(1);
  });

  it("marks a ticket refunded at Stripe, keeps the member on the list as unpaid and tells the managers", async () => {
    const event = await createEvent(db(), {
      title: "Change of Plans",
      date: "2028-03-10",
      status: "future",
      ticketPriceCents: 6000,
    });
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");
    const sessionId = await buyAndPay(event.id, player.cookie);
    await notify("checkout.session.completed", standIn().sessions.get(sessionId)!);
    await notify("charge.refunded", {
      id: "ch_test_refund",
      object: "charge",
      payment_intent: standIn().sessions.get(sessionId)!.payment_intent,
      amount_refunded: 6000,
      refunded: true,
    });
    const [purchase] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: "refunded" });
    expect(purchase!.refundedAt).toBeInstanceOf(Date);
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(eq(eventAttendance.userId, player.id)),
    ).toEqual([{ paymentStatus: "unpaid" }]);
    expect((await mailTo(manager.email)).map((mail) => mail.subject)).toEqual([
      "A ticket for Change of Plans was refunded",
    ]);
  });
});
