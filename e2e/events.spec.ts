import fs from "node:fs";
import { devices, request as playwrightRequest, type Page } from "@playwright/test";
import type { E2E_PLAYERS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { addEvent, createMember, signInByPost } from "./helpers";

// A manager's and a player's journey, each with a CAPTCHA solve, on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

/** The Friday `weeks` weeks or a little more from now, as stored ("2026-12-18") and as the page writes it. */
function fridayAhead(weeks: number): { iso: string; label: string; dueLabel: string } {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + weeks * 7);
  while (day.getUTCDay() !== 5) day.setUTCDate(day.getUTCDate() + 1);
  const label = (d: Date) =>
    new Intl.DateTimeFormat("en-US", {
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    }).format(d);
  const due = new Date(day);
  due.setUTCDate(due.getUTCDate() - 14);
  return { iso: day.toISOString().slice(0, 10), label: label(day), dueLabel: label(due) };
}

/** On /events: pages on (ten events a page, soonest first; other specs add many) until the event titled `title` shows. */
async function pageTo(page: Page, title: string) {
  const event = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2, name: title }) });
  const pages = page.getByRole("navigation", { name: "Pages" });
  for (let shown = 1; !(await event.isVisible()); shown++) {
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(pages).toContainText(`Page ${shown + 1} of`);
  }
  return event;
}

test("a registered player reads an event's time, place and their own status, and adds it to their calendar", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}, testInfo) => {
  const width = testInfo.project.name as keyof typeof E2E_PLAYERS;
  const lastName = width === "desktop" ? "Tanner" : "Bright";
  const title = `Lantern Night ${width} ${Date.now() % 100_000}`;
  const friday = fridayAhead(width === "desktop" ? 4 : 5);

  // A manager announces the event and puts the player on its attendance list.
  await withSession(page, managerState);
  await addEvent(page, { title, date: friday.iso, status: "future", ticketUrl: "https://buy.stripe.com/test_lantern" });
  await page.goto("/attendance-tool");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${title} (${friday.label})` });
  await page.getByLabel("Find a member").fill(`Wyatt ${lastName}`);
  await page.getByLabel(new RegExp(`Wyatt ${lastName}`)).check();
  await page.getByRole("button", { name: "Add Attendance" }).click();
  await expect(page.getByText("Attendance added successfully!")).toBeVisible();

  // The player, in a browser of their own at the same width.
  const context = await browser.newContext({
    ...(width === "phone" ? devices["Pixel 7"] : { viewport: { width: 1280, height: 800 } }),
    baseURL,
    acceptDownloads: true,
    storageState: playerState,
  });
  const player = await context.newPage();
  await player.goto("/events");
  await expect(player.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();

  // The page leads with the member's registrations, in view on arrival at a phone's width too,
  // each a link to its event wherever it is in the list (ten a page, and other specs add many).
  const registrations = player.getByRole("region", { name: "You Are Registered" });
  await expect(registrations.getByRole("link", { name: title, exact: true })).toBeInViewport();
  await expect(registrations.getByRole("listitem").filter({ hasText: title })).toContainText(
    `${friday.label} · Cabin not given yet`,
  );
  await registrations.getByRole("link", { name: title, exact: true }).click();
  const event = player.getByRole("listitem").filter({ has: player.getByRole("heading", { level: 2, name: title }) });
  await expect(event.getByRole("heading", { level: 2, name: title })).toBeInViewport();
  // On the event itself the registration comes first, beside the title, and no second purchase is offered.
  const registration = event.getByTestId("registration");
  await expect(registration).toHaveText(/^You are registered.*Cabin not given yet$/);
  await expect(registration).toBeInViewport();
  await expect(event.getByRole("link", { name: /Purchase Ticket/ })).toHaveCount(0);
  await expect(event).toContainText(friday.label);
  await expect(event).toContainText(/Venue opens\s*2:00 PM E[SD]T/);
  await expect(event).toContainText(/Game starts\s*10:00 PM E[SD]T; arrive by 9:00 PM E[SD]T/);
  await expect(event.locator("address")).toHaveText("Taber Creek, 42 Cat Hollow Road, Union, CT 06076");
  await expect(event.getByRole("link", { name: "Directions to Taber Creek (opens in a new tab)" })).toHaveAttribute(
    "href",
    /openstreetmap\.org\/directions/,
  );

  const status = event.getByRole("region", { name: `Your status for ${title}` });
  await expect(status).toContainText(/Registration\s*Registered/);
  await expect(status).toContainText(`Due ${friday.dueLabel}; No photo yet`);
  await expect(status).toContainText(/Merchant orders\s*None/);
  await expect(status).not.toContainText("Post-event letter");
  await expectAccessible(player);
  await player.screenshot({ path: testInfo.outputPath(`events-${width}.png`), fullPage: true });

  // "Add to Calendar" downloads the event's calendar file.
  const [download] = await Promise.all([
    player.waitForEvent("download"),
    event.getByRole("link", { name: `Add to Calendar ${title}` }).click(),
  ]);
  const file = fs.readFileSync((await download.path())!, "utf8");
  expect(file).toContain(`SUMMARY:${title}`);
  expect(file).toContain(`DTSTART;TZID=America/New_York:${friday.iso.replaceAll("-", "")}T140000`);
  expect(file).toContain("BEGIN:VTIMEZONE");

  // The member's own feed address is offered to subscribe to; a calendar app reads it without cookies.
  const feed = player.getByRole("region", { name: "Calendar Feed" });
  const subscribe = feed.getByRole("link", { name: "Subscribe to the calendar" });
  await expect(subscribe).toHaveAttribute("href", /^webcal:\/\/.+\/events\/calendar\/[^/]+\/[\w-]{43}\.ics$/);
  const address = (await feed.locator("code").textContent())!.trim();
  expect(address).toBe((await subscribe.getAttribute("href"))!.replace(/^webcal:/, new URL(address).protocol));
  const app = await playwrightRequest.newContext();
  const read = await app.get(address);
  expect(read.status()).toBe(200);
  expect(await read.text()).toContain(`SUMMARY:${title}`);
  // The old public feed is gone.
  expect((await app.get(new URL("/events/calendar.ics", address).href)).status()).toBe(404);
  // A member who fears the address was passed on gets a new one: the old one stops working.
  await feed.getByRole("button", { name: "Get a new address" }).click();
  await expect(
    feed.getByText(
      "Your calendar feed has a new address. The old one no longer works: subscribe to this one in your calendar app.",
    ),
  ).toBeVisible();
  // The page's data is read again after the form: the new address replaces the old one.
  await expect(feed.locator("code")).not.toHaveText(address);
  const renewed = (await feed.locator("code").textContent())!.trim();
  expect((await app.get(address)).status()).toBe(404);
  expect(await (await app.get(renewed)).text()).toContain(`SUMMARY:${title}`);
  await expectAccessible(player);
  await app.dispose();
  await context.close();

  // An applicant sees the event and why they cannot buy a ticket yet, in the button's place.
  const applicant = await createMember({
    email: `applicant-${width}-${Date.now() % 100_000}@e2e.test`,
    first: "Nell",
    last: `Waite${width === "desktop" ? "Desk" : "Phone"}`,
    role: "applicant",
  });
  const applying = await browser.newContext({
    ...(width === "phone" ? devices["Pixel 7"] : { viewport: { width: 1280, height: 800 } }),
    baseURL,
  });
  const waiting = await applying.newPage();
  await signInByPost(waiting, applicant.email, applicant.password);
  await waiting.goto("/events");
  await expect(waiting.getByRole("region", { name: "You Are Registered" })).toHaveCount(0);
  const seen = await pageTo(waiting, title);
  await seen.getByRole("heading", { level: 2, name: title }).scrollIntoViewIfNeeded();
  const why = seen.getByTestId("no-ticket-yet");
  await expect(why).toHaveText(
    "Tickets are for accepted players. Apply to play first: once the organisers accept you, you can buy one here. Apply to play",
  );
  await expect(why).toBeInViewport();
  await expect(why.getByRole("link", { name: "Apply to play" })).toHaveAttribute("href", "/application");
  await expect(seen.getByRole("link", { name: /Purchase Ticket/ })).toHaveCount(0);
  await expectAccessible(waiting);
  await applying.close();
});

test("a manager cancels an event after a red button and a question that names it and says what follows @any-width", async ({
  page,
  managerState,
}) => {
  const title = `Dust Storm ${Date.now() % 100_000}`;
  const friday = fridayAhead(6);
  await withSession(page, managerState);
  await addEvent(page, { title, date: friday.iso, status: "future" });
  const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: title }) });
  const cancel = row.getByRole("link", { name: `Cancel event: ${title}` });
  // The danger style: blood-red words and border, unlike Edit beside it.
  await expect(cancel).toHaveCSS("color", "rgb(224, 96, 90)");
  await expect(cancel).toHaveCSS("border-top-color", "rgb(224, 96, 90)");
  await expect(row.getByRole("link", { name: `Edit ${title}` })).toHaveCSS("color", "rgb(224, 180, 88)");

  // Asked first, in words naming the event, its day and what follows; "Keep it" changes nothing.
  await cancel.click();
  const question = page.getByTestId("cancel-event-confirm");
  await expect(question.getByRole("heading", { name: "Cancel this event?" })).toBeFocused();
  await expect(question).toContainText(
    `Cancel “${title}” on ${friday.label}? It leaves the members' events page and its tickets go off sale. The site does not tell the members on its list: tell them yourself.`,
  );
  const yes = question.getByRole("button", { name: `Yes, cancel the event ${title}` });
  await expect(yes).toHaveCSS("color", "rgb(224, 96, 90)");
  await expectAccessible(page);
  await question.getByRole("link", { name: "Keep it" }).click();
  await expect(question).toHaveCount(0);
  await expect(row).toContainText("future");

  await cancel.click();
  await yes.click();
  await expect(page.getByText("Event cancelled.")).toBeVisible();
  await expect(row).toContainText("cancelled");
  await expect(row.getByRole("link", { name: `Cancel event: ${title}` })).toHaveCount(0);
});
