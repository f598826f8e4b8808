import fs from "node:fs";
import { devices, request as playwrightRequest } from "@playwright/test";
import type { E2E_PLAYERS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { addEvent } from "./helpers";

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
  await addEvent(page, { title, date: friday.iso, status: "future" });
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

  const event = player.getByRole("listitem").filter({ has: player.getByRole("heading", { level: 2, name: title }) });
  // Other specs announce events too, and the list shows ten at a time, soonest first: page on to this one.
  const pages = player.getByRole("navigation", { name: "Pages" });
  for (let shown = 1; !(await event.isVisible()); shown++) {
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(pages).toContainText(`Page ${shown + 1} of`);
  }
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
});
