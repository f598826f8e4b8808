import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { E2E_SERVICES_SERVER, E2E_STAND_INS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { addTicketedEvent, createMember, signIn } from "./helpers";

/**
 * A ticket bought in Chromium: the run's second server sells tickets through Stripe Checkout
 * (STRIPE_* settings in playwright.config.ts) against a stand-in of Stripe's API and checkout page
 * (tests/helpers/stripe-stand-in.ts, started by e2e/global-setup.ts), which sends the app the
 * signed webhook Stripe would when the buyer pays.
 */

/** Sign-ins hash a password on a shared 2-core machine: each step may take a while. */
const SLOW = { timeout: 30_000 };

test.describe("tickets through Stripe Checkout", () => {
  test.describe.configure({ mode: "serial", timeout: 150_000 });
  const site = E2E_SERVICES_SERVER.url;

  test("a player buys a ticket and is registered without a manager doing anything: the attendance list, its export and the event-day sheet say paid", async ({
    browser,
  }) => {
    // The server outlives a try of this test (a retry, a repeat): each makes its members and event anew.
    const tag = crypto.randomBytes(3).toString("hex");
    const manager = await createMember(
      { email: `mae.holt-${tag}@e2e.test`, first: "Mae", last: `Holt${tag}`, role: "manager" },
      E2E_SERVICES_SERVER,
    );
    const player = await createMember(
      { email: `jonah.reed-${tag}@e2e.test`, first: "Jonah", last: `Reed${tag}`, role: "player" },
      E2E_SERVICES_SERVER,
    );
    const title = `Ticketed Night ${tag}`;

    const managerContext = await browser.newContext({ baseURL: site });
    const managing = await managerContext.newPage();
    await managing.goto("/auth?redirectTo=%2Fevents%2Fmanage");
    await signIn(managing, manager.email, manager.password);
    await expect(managing).toHaveURL(`${site}/events/manage`, SLOW);
    await addTicketedEvent(managing, { title, date: "2031-05-16", price: "85", places: "40" });

    const playerContext = await browser.newContext({ baseURL: site });
    const page = await playerContext.newPage();
    await page.goto("/auth?redirectTo=%2Fevents");
    await signIn(page, player.email, player.password);
    await expect(page).toHaveURL(`${site}/events`, SLOW);
    const buy = page.getByRole("button", { name: `Buy a ticket — $85.00 for ${title}` });
    await expect(buy).toBeVisible();
    await buy.click();
    // Stripe's checkout page (the stand-in's), for this ticket.
    await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_STAND_INS.stripePort}/pay/cs_test_`), SLOW);
    await expect(page.getByText(`Hopewell ticket: ${title}`)).toBeVisible();
    await page.getByRole("button", { name: "Pay $85.00" }).click();
    await expect(page).toHaveURL(new RegExp(`^${site}/events/ticket\\?session_id=cs_test_`), SLOW);
    await expect(page.getByRole("heading", { name: "Payment received: you are registered" })).toBeVisible();
    await expect(page.getByText("$85.00 paid")).toBeVisible();
    await expectAccessible(page);
    await page.goto("/events");
    // The registration leads the page and the event, with the ticket's page to open again; no second purchase is offered.
    const registrations = page.getByRole("region", { name: "You Are Registered" });
    await expect(registrations.getByRole("link", { name: title, exact: true })).toBeInViewport();
    await expect(registrations.getByRole("link", { name: new RegExp(`^Your ticket for ${title}`) })).toHaveAttribute(
      "href",
      /^\/events\/ticket\?session_id=cs_test_/,
    );
    await registrations.getByRole("link", { name: title, exact: true }).click();
    const event = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2, name: title }) });
    await expect(event.getByTestId("registration")).toContainText(`You are registered for ${title}`);
    await expect(page.getByRole("button", { name: new RegExp(`Buy a ticket.*${title}`) })).toHaveCount(0);
    await event.getByRole("link", { name: new RegExp(`^Your ticket for ${title}`) }).click();
    await expect(page.getByRole("heading", { name: "Payment received: you are registered" })).toBeVisible();

    // The manager finds the player on the list, paid, with the payment, without adding them.
    await managing.goto("/attendance");
    await managing.getByRole("link", { name: title }).click();
    await expect(managing.getByRole("cell", { name: `Jonah Reed${tag}` }).first()).toBeVisible();
    await expect(managing.getByTestId("ticket-summary")).toHaveText(
      "Tickets $85.00 · $85.00 taken · 39 of 40 places left",
    );
    await expectAccessible(managing);
    const eventId = new URL(managing.url()).searchParams.get("event")!;
    const csv = await (await managing.request.get(`/attendance/${eventId}/csv`)).text();
    expect(
      csv
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n")[1],
    ).toMatch(new RegExp(`^Reed${tag},Jonah,No character,Not assigned,Ticket bought on the site,\\$85\\.00,`));
    await managing.goto(`/tools/event-day/${eventId}`);
    await expect(managing.getByText(`Jonah Reed${tag}`).first()).toBeVisible();
    await managerContext.close();
    await playerContext.close();
  });
});
