import crypto from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import Stripe from "stripe";
import { E2E_SERVICES_SERVER, E2E_STAND_INS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { addTicketedEvent, createMember, screenshots, signIn, signInByPost } from "./helpers";

/**
 * Tickets as members and managers meet them past the first purchase, in Chromium against the run's
 * second server and its Stripe stand-in: buying with scripts off, going back from Stripe's page,
 * a manager's refund and what the member then reads, and a bank debit that fails.
 */

const SLOW = { timeout: 30_000 };
const site = E2E_SERVICES_SERVER.url;
const stripePage = new RegExp(`^http://127\\.0\\.0\\.1:${E2E_STAND_INS.stripePort}/pay/cs_test_`);

async function playerPage(
  browser: Browser,
  tag: string,
  first: string,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const player = await createMember(
    { email: `${first.toLowerCase()}-${tag}@e2e.test`, first, last: `Rider${tag}`, role: "player" },
    E2E_SERVICES_SERVER,
  );
  const context = await browser.newContext({ baseURL: site, ...options });
  const page = await context.newPage();
  await signInByPost(page, player.email, player.password, site);
  return page;
}

/** The event's own card on the events page (other tries and widths list events of their own). */
function card(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** Pictures for a person to look at, at desktop and phone widths (taken once, in the desktop run). */
async function look(page: Page, name: string) {
  if (test.info().project.name === "desktop")
    await screenshots(page, [1280, 390], (px) => `/tmp/tickets-${name}-${px}.png`);
}

/** What Stripe would send about a session the test names, signed with the endpoint's secret. */
async function sendNotice(type: string, session: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_e2e_${crypto.randomBytes(8).toString("hex")}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { object: "checkout.session", ...session } },
  });
  const signature = new Stripe("sk_test_e2e_signer").webhooks.generateTestHeaderString({
    payload,
    secret: E2E_STAND_INS.stripeWebhookSecret,
  });
  const answer = await fetch(`${site}/webhooks/stripe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
  expect(answer.status).toBe(200);
}

test.describe("tickets after the first purchase", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });

  test("scripts off, Back from Stripe, a manager's refund and a failed bank debit, as the member and the manager see them", async ({
    browser,
  }) => {
    const tag = crypto.randomBytes(3).toString("hex");
    const manager = await createMember(
      { email: `mae.refunds-${tag}@e2e.test`, first: "Mae", last: `Ledger${tag}`, role: "manager" },
      E2E_SERVICES_SERVER,
    );
    const title = `Refund Rodeo ${tag}`;
    const managerContext = await browser.newContext({ baseURL: site });
    const managing = await managerContext.newPage();
    await managing.goto("/auth?redirectTo=%2Fevents%2Fmanage");
    await signIn(managing, manager.email, manager.password);
    await expect(managing).toHaveURL(`${site}/events/manage`, SLOW);
    await addTicketedEvent(managing, { title, date: "2031-06-13", price: "60", places: "2" });

    // With scripts off, Buy a ticket still reaches Stripe's page (the page's form-action allows it), and paying registers.
    const noScript = await playerPage(browser, tag, "Nora", { javaScriptEnabled: false });
    await noScript.goto("/events");
    await expect(card(noScript, title).getByText("2 of 2 places left")).toBeVisible();
    await look(noScript, "events-places-left");
    await noScript.getByRole("button", { name: `Buy a ticket — $60.00 for ${title}` }).click();
    await expect(noScript).toHaveURL(stripePage, SLOW);
    await noScript.getByRole("button", { name: "Pay $60.00" }).click();
    await expect(noScript.getByRole("heading", { name: "Payment received: you are registered" })).toBeVisible(SLOW);
    await look(noScript, "return-paid");

    // Back from Stripe's page: the browser's Back offers the member's own checkout; Stripe's back link gives the place up.
    const backer = await playerPage(browser, tag, "Bart");
    await backer.goto("/events");
    await expect(card(backer, title).getByText("1 of 2 places left")).toBeVisible();
    await backer.getByRole("button", { name: `Buy a ticket — $60.00 for ${title}` }).click();
    await expect(backer).toHaveURL(stripePage, SLOW);
    const checkoutUrl = backer.url();
    await backer.goBack();
    await backer.reload();
    await expect(card(backer, title).getByText(/Your place is held until \d{1,2}:\d{2} [AP]M E[SD]T/)).toBeVisible();
    const resume = backer.getByRole("link", { name: `Continue to payment for ${title}, Friday, June 13, 2031` });
    await expect(resume).toHaveAttribute("href", checkoutUrl);
    await look(backer, "events-held");
    await expectAccessible(backer);
    // Another player finds the last place held, and is told when it may come back.
    const waiting = await playerPage(browser, tag, "Wanda");
    await waiting.goto("/events");
    await expect(card(waiting, title).getByTestId("sold-out")).toContainText(
      "1 place is held at checkout and comes back if not paid for",
    );
    await look(waiting, "events-sold-out");
    await resume.click();
    await expect(backer).toHaveURL(stripePage, SLOW);
    await backer.getByRole("link", { name: "Back" }).click();
    await expect(backer.getByRole("heading", { name: "Checkout Cancelled" })).toBeVisible(SLOW);
    await expect(
      backer.getByText(`You left Stripe's checkout: nothing was charged, and your place at ${title} is given back.`),
    ).toBeVisible();
    await waiting.reload();
    await expect(card(waiting, title).getByText("1 of 2 places left")).toBeVisible();

    // A bank debit that fails: the return page says so, and what to do.
    await waiting.getByRole("button", { name: `Buy a ticket — $60.00 for ${title}` }).click();
    await expect(waiting).toHaveURL(stripePage, SLOW);
    const debitSession = waiting.url().split("/").pop()!;
    await sendNotice("checkout.session.completed", {
      id: debitSession,
      status: "complete",
      payment_status: "unpaid",
      amount_total: 6000,
      currency: "usd",
    });
    await waiting.goto(`/events/ticket?session_id=${debitSession}`);
    await expect(waiting.getByRole("heading", { name: "We are confirming your payment" })).toBeVisible();
    await look(waiting, "return-confirming");
    await sendNotice("checkout.session.async_payment_failed", {
      id: debitSession,
      status: "complete",
      payment_status: "unpaid",
      amount_total: 6000,
      currency: "usd",
    });
    await waiting.goto(`/events/ticket?session_id=${debitSession}`);
    await expect(waiting.getByRole("heading", { name: "Your payment did not go through" })).toBeVisible();
    await expect(waiting.getByText("nothing was taken and you are not registered")).toBeVisible();
    await look(waiting, "return-failed");
    await expectAccessible(waiting);

    // The manager refunds the scriptless player's ticket from the attendance page, confirming first.
    await managing.goto("/attendance");
    await managing.getByRole("link", { name: title }).click();
    await expect(managing.getByTestId("ticket-summary")).toHaveText(
      "Tickets $60.00 · $60.00 taken · 1 of 2 places left",
    );
    await look(managing, "payments-before-refund");
    let asked = "";
    managing.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await managing.getByRole("button", { name: `Refund Nora Rider${tag}'s ticket` }).click();
    await expect(
      managing.getByText(`Refunded $60.00 to Nora Rider${tag} for ${title}; they have been emailed.`),
    ).toBeVisible(SLOW);
    expect(asked).toContain(`Refund $60.00 to Nora Rider${tag} for ${title} (Friday, June 13, 2031)?`);
    await expect(managing.getByTestId("ticket-summary")).toHaveText(
      "Tickets $60.00 · $0.00 taken · 2 of 2 places left",
    );
    await expect(managing.getByRole("cell", { name: /Refunded on the site \(\$60\.00\)/ })).toBeVisible();
    await look(managing, "payments-view");
    await expectAccessible(managing);

    // The member reads it on the events page and on the page Stripe returned them to.
    await noScript.goto("/events");
    await expect(card(noScript, title).getByText(/Refunded on \w{3} \d{1,2}, \d{4} \(\$60\.00\)/)).toBeVisible();
    await expect(card(noScript, title).getByText("payment not recorded")).toHaveCount(0);
    await look(noScript, "events-refunded");
    await noScript.goBack();
    await noScript.reload();
    await expect(noScript.getByRole("heading", { name: "Your payment was refunded" })).toBeVisible();
    await expect(
      noScript.getByText("The organisers refunded your ticket, and your place was given up.", { exact: false }),
    ).toBeVisible();
    await look(noScript, "return-refunded");

    await managerContext.close();
    for (const page of [noScript, backer, waiting]) await page.context().close();
  });
});
