import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createEvent } from "~/platform/db/factories";
import { auditLog, eventAttendance, outbox, profiles, ticketPurchases } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";
import { ticketSteps, withStripeStandIn } from "../../helpers/stripe-stand-in";

const db = withTestDatabase();
const WEBHOOK_SECRET = "whsec_hopewell_refunds_test";

describe("ticket refunds: from the site, at Stripe, and for payments the site cannot keep", () => {
  const app = withAppServer();
  const standIn = withStripeStandIn(WEBHOOK_SECRET);
  const { buyAndPay, notify } = ticketSteps(app, standIn, WEBHOOK_SECRET);

  async function paidTicket(title: string, priceCents = 8500, places: number | null = 40) {
    const event = await createEvent(db(), {
      title,
      date: "2029-05-18",
      status: "future",
      ticketPriceCents: priceCents,
      ticketPlaces: places,
    });
    const player = await signedInMember("player");
    const sessionId = await buyAndPay(event.id, player.cookie);
    await notify("checkout.session.completed", standIn().sessions.get(sessionId)!);
    const [purchase] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(purchase!.status).toBe("paid");
    return { event, player, sessionId, purchase: purchase! };
  }
  const mailTo = async (email: string) =>
    (await db().select().from(outbox))
      .filter((row) => (row.payload as { to?: string }).to === email)
      .map((row) => row.payload as { subject: string; text: string });
  const refundAudits = async (purchaseId: string) =>
    (await db().select().from(auditLog).where(eq(auditLog.action, "ticket.refunded"))).filter(
      (row) => (row.details as { purchaseId?: string }).purchaseId === purchaseId,
    );
  const page = async (path: string, cookie: string) =>
    visibleText(await (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text());

  it("asks the manager to confirm, naming the member, the amount and the event, and refunds once however often Refund is pressed", async () => {
    const { event, player, sessionId, purchase } = await paidTicket("Refund Night");
    const manager = await signedInMember("manager");
    const path = `/attendance?event=${event.id}`;
    expect(await page(path, manager.cookie)).toContain(`Refund ${player.firstName} ${player.lastName}'s ticket`);

    // Without confirm=yes (no script to ask first) the page asks, and nothing is refunded.
    const asked = await postForm(app().url, path, { intent: "refund_ticket", purchaseId: purchase.id }, manager.cookie);
    expect(asked.status).toBe(200);
    const question = visibleText(await asked.text());
    expect(question).toContain(
      `Please confirm Refund $85.00 to ${player.firstName} ${player.lastName} for Refund Night (Friday, May 18, 2029)?`,
    );
    expect(standIn().refunds).toHaveLength(0);

    const presses = await Promise.all(
      Array.from({ length: 4 }, () =>
        postForm(app().url, path, { intent: "refund_ticket", purchaseId: purchase.id, confirm: "yes" }, manager.cookie),
      ),
    );
    expect(presses.map((press) => press.status)).toEqual([200, 200, 200, 200]);
    const said = await Promise.all(presses.map(async (press) => visibleText(await press.text())));
    expect(
      said.some((text) =>
        text.includes(
          `Refunded $85.00 to ${player.firstName} ${player.lastName} for Refund Night; they have been emailed.`,
        ),
      ),
    ).toBe(true);

    const paymentIntent = standIn().sessions.get(sessionId)!.payment_intent;
    expect(standIn().refunds.filter((refund) => refund.payment_intent === paymentIntent)).toHaveLength(1);
    // Every press carried the purchase's one key, so Stripe made one refund.
    expect(
      new Set(
        standIn()
          .requests.filter((request) => request.path === "/v1/refunds")
          .map((request) => request.idempotencyKey),
      ),
    ).toEqual(new Set([`hopewell-refund-${purchase.id}`]));
    const [refunded] = await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, purchase.id));
    expect(refunded).toMatchObject({
      status: "refunded",
      refundReason: "manager",
      refundedBy: manager.id,
      refundedCents: 8500,
    });
    expect(
      await db()
        .select()
        .from(eventAttendance)
        .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, player.id))),
    ).toEqual([]);
    const audits = await refundAudits(purchase.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: manager.id, subjectId: player.id });
    const told = await mailTo(player.email);
    expect(told.filter((mail) => mail.subject === "Your payment for Refund Night was refunded")).toHaveLength(1);
    expect(told.find((mail) => mail.subject.endsWith("refunded"))!.text).toContain(
      "The organisers refunded your ticket for Refund Night on Friday, May 18, 2029: $85.00 is on its way back to you",
    );

    // Stripe's own notice of the refund, arriving after, changes nothing more.
    await notify("charge.refunded", standIn().refundedCharge(paymentIntent!));
    expect(await refundAudits(purchase.id)).toHaveLength(1);
    expect((await mailTo(player.email)).filter((mail) => mail.subject.endsWith("refunded"))).toHaveLength(1);

    // The place is free, and the member reads what happened where they look.
    const managerPage = await page(path, manager.cookie);
    expect(managerPage).toContain("Tickets $85.00 · $0.00 taken · 40 of 40 places left");
    expect(managerPage).toMatch(/Refunded on the site \(\$85\.00\) \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T/);
    const events = await page("/events", player.cookie);
    expect(events).toMatch(/Registration Refunded on \w{3} \d{1,2}, \d{4} \(\$85\.00\)/);
    expect(events).not.toContain("payment not recorded");
    const back = await page(`/events/ticket?session_id=${sessionId}`, player.cookie);
    expect(back).toContain("Your payment was refunded");
    expect(back).toContain("The organisers refunded your ticket, and your place was given up.");
    expect(back).not.toContain("We are confirming your payment");
  });

  it("ends with one refund, one audit row and one email when a manager presses Refund as the same ticket is refunded in Stripe's dashboard", async () => {
    const { event, player, sessionId, purchase } = await paidTicket("Crossed Wires");
    const manager = await signedInMember("manager");
    const paymentIntent = standIn().sessions.get(sessionId)!.payment_intent!;
    // Refunded in the dashboard first; its notice and the manager's press then arrive together.
    standIn().refund(paymentIntent);
    const [press] = await Promise.all([
      postForm(
        app().url,
        `/attendance?event=${event.id}`,
        { intent: "refund_ticket", purchaseId: purchase.id, confirm: "yes" },
        manager.cookie,
      ),
      notify("charge.refunded", standIn().refundedCharge(paymentIntent)),
    ]);
    expect([200, 404]).toContain(press.status);
    expect(standIn().refunds.filter((refund) => refund.payment_intent === paymentIntent)).toHaveLength(1);
    expect((await db().select().from(ticketPurchases).where(eq(ticketPurchases.id, purchase.id)))[0]).toMatchObject({
      status: "refunded",
      refundedCents: 8500,
    });
    expect(await refundAudits(purchase.id)).toHaveLength(1);
    expect(
      (await mailTo(player.email)).filter((mail) => mail.subject === "Your payment for Crossed Wires was refunded"),
    ).toHaveLength(1);
  });

  it("shows a ticket refunded at Stripe where the managers look, with the actions their email names, and tells the member", async () => {
    const { event, player, sessionId } = await paidTicket("Change of Heart", 6000, null);
    const manager = await signedInMember("manager");
    const paymentIntent = standIn().sessions.get(sessionId)!.payment_intent!;
    standIn().refund(paymentIntent);
    await notify("charge.refunded", standIn().refundedCharge(paymentIntent));

    const email = (await mailTo(manager.email)).find(
      (mail) => mail.subject === "A ticket for Change of Heart was refunded",
    )!;
    expect(email.text).toContain(
      `${player.firstName} ${player.lastName}'s ticket for Change of Heart on Friday, May 18, 2029 was refunded at Stripe ($60.00).`,
    );
    expect(email.text).toContain(
      "On the attendance page, under the event's tickets, remove them from the list or record that they paid another way.",
    );
    expect(email.text).toContain(`/attendance?event=${event.id}`);
    expect((await mailTo(player.email)).map((mail) => mail.subject)).toContain(
      "Your payment for Change of Heart was refunded",
    );

    const path = `/attendance?event=${event.id}`;
    const listed = await page(path, manager.cookie);
    expect(listed).toContain("On the list without a payment");
    expect(listed).toContain(`Record a payment for ${player.firstName} ${player.lastName}`);
    expect(listed).toContain(`Remove from the list ${player.firstName} ${player.lastName}`);
    expect(await page("/events", player.cookie)).toMatch(/Registration Refunded on \w{3} \d{1,2}, \d{4} \(\$60\.00\)/);

    // Recording a payment made another way counts them again; removing takes them off.
    const recorded = await postForm(
      app().url,
      path,
      { intent: "record_payment", userId: player.id, confirm: "yes" },
      manager.cookie,
    );
    expect(visibleText(await recorded.text())).toContain(`${player.firstName} ${player.lastName} is recorded as paid.`);
    expect(
      await db()
        .select({ paymentStatus: eventAttendance.paymentStatus })
        .from(eventAttendance)
        .where(eq(eventAttendance.userId, player.id)),
    ).toEqual([{ paymentStatus: "paid" }]);
    await db().update(eventAttendance).set({ paymentStatus: "unpaid" }).where(eq(eventAttendance.userId, player.id));
    const removed = await postForm(
      app().url,
      path,
      { intent: "remove_unpaid", userId: player.id, confirm: "yes" },
      manager.cookie,
    );
    expect(visibleText(await removed.text())).toContain(
      `${player.firstName} ${player.lastName} was taken off the list.`,
    );
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, player.id))).toEqual([]);
    expect(
      (await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, player.id))).map(
        (row) => row.action,
      ),
    ).toEqual(expect.arrayContaining(["attendance.record_payment", "attendance.remove_unpaid"]));
    // A paid registration cannot be removed through this door.
    expect(
      (await postForm(app().url, path, { intent: "remove_unpaid", userId: manager.id, confirm: "yes" }, manager.cookie))
        .status,
    ).toBe(404);
  });

  it("ends the open checkouts of a cancelled event, and refunds, once, a payment that still arrives for it or for a deleted account, telling the member and the managers", async () => {
    const manager = await signedInMember("manager");
    const event = await createEvent(db(), {
      title: "Washed Out",
      date: "2029-06-15",
      status: "future",
      ticketPriceCents: 5000,
    });
    const player = await signedInMember("player");
    const sent = await postForm(app().url, "/events", { intent: "buy_ticket", eventId: event.id }, player.cookie);
    const sessionId = sent.headers.get("Location")!.split("/").pop()!;
    // The player pays at Stripe's page just as the manager cancels.
    standIn().pay(sessionId);
    const cancelled = await postForm(app().url, "/events/manage", { intent: "cancel", id: event.id }, manager.cookie);
    expect(cancelled.status).toBe(200);
    expect(visibleText(await cancelled.text())).not.toContain("paid for this event on the site");
    expect(await notify("checkout.session.completed", standIn().sessions.get(sessionId)!)).toBe("recorded");
    const [purchase] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: "refunded", refundReason: "event-cancelled", refundedCents: 5000 });
    expect(standIn().refunds.filter((refund) => refund.payment_intent === purchase!.paymentIntentId)).toHaveLength(1);
    expect(await db().select().from(eventAttendance).where(eq(eventAttendance.userId, player.id))).toEqual([]);
    expect(
      (await mailTo(player.email)).find((mail) => mail.subject === "Your payment for Washed Out was refunded")!.text,
    ).toContain("arrived after the event was cancelled");
    expect(
      (await mailTo(manager.email)).find((mail) => mail.subject === "A ticket for Washed Out was refunded")!.text,
    ).toContain("arrived after the event was cancelled. The site refunded it in full through Stripe");
    expect(await page(`/events/ticket?session_id=${sessionId}`, player.cookie)).toContain(
      "Your payment arrived after the event was cancelled.",
    );
    // A second delivery, and the reconciliation's look, refund nothing more.
    await notify("checkout.session.completed", standIn().sessions.get(sessionId)!);
    expect(standIn().refunds.filter((refund) => refund.payment_intent === purchase!.paymentIntentId)).toHaveLength(1);
    expect(await refundAudits(purchase!.id)).toHaveLength(1);

    // Cancelling an event with paid tickets tells the manager to refund them: the site refunds none by itself.
    const held = await paidTicket("Moved Date");
    const told = visibleText(
      await (
        await postForm(app().url, "/events/manage", { intent: "cancel", id: held.event.id }, manager.cookie)
      ).text(),
    );
    expect(told).toContain(
      "1 ticket was paid for this event on the site: refund it from the attendance page, where each paid ticket has a Refund button.",
    );
    expect(
      (
        await db()
          .select({ status: ticketPurchases.status })
          .from(ticketPurchases)
          .where(eq(ticketPurchases.id, held.purchase.id))
      )[0]!.status,
    ).toBe("paid");

    // A checkout still open when the event is cancelled is ended at Stripe.
    const later = await createEvent(db(), {
      title: "Dry Creek",
      date: "2029-07-13",
      status: "future",
      ticketPriceCents: 5000,
    });
    const other = await signedInMember("player");
    const open = (
      await postForm(app().url, "/events", { intent: "buy_ticket", eventId: later.id }, other.cookie)
    ).headers
      .get("Location")!
      .split("/")
      .pop()!;
    await postForm(app().url, "/events/manage", { intent: "cancel", id: later.id }, manager.cookie);
    expect(standIn().sessions.get(open)!.status).toBe("expired");
    expect(
      (
        await db()
          .select({ status: ticketPurchases.status })
          .from(ticketPurchases)
          .where(eq(ticketPurchases.checkoutSessionId, open))
      )[0]!.status,
    ).toBe("released");

    // A payment for an account deleted while its checkout was open.
    const third = await createEvent(db(), {
      title: "Ghost Rider",
      date: "2029-08-17",
      status: "future",
      ticketPriceCents: 5000,
    });
    const leaving = await signedInMember("player");
    const ghostSession = await buyAndPay(third.id, leaving.cookie);
    await db()
      .update(profiles)
      .set({ email: `deleted-${leaving.id}@deleted.invalid` })
      .where(eq(profiles.id, leaving.id));
    await db().update(ticketPurchases).set({ userId: null }).where(eq(ticketPurchases.checkoutSessionId, ghostSession));
    await notify("checkout.session.completed", standIn().sessions.get(ghostSession)!);
    const [ghost] = await db()
      .select()
      .from(ticketPurchases)
      .where(eq(ticketPurchases.checkoutSessionId, ghostSession));
    expect(ghost).toMatchObject({ status: "refunded", refundReason: "account-deleted" });
    expect(
      (await mailTo(manager.email)).find((mail) => mail.subject === "A ticket for Ghost Rider was refunded")!.text,
    ).toContain("from a deleted account for Ghost Rider");
  });
});
