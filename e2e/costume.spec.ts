import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { daysBefore } from "../app/game/costume";
import { clubToday, formatEventDate } from "../app/lib/dates";
import { ANY_WIDTH, E2E_PLAYERS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, withSession, type SignedInState } from "./fixtures";
import { addAttendance, addEvent, createMember, mainNav, signInByPost } from "./helpers";

// Two members' sign-ins, an event, a registration and four rounds between player and staff.
test.describe.configure({ timeout: 180_000 });

/** A photo as a phone would send it: a JPEG with its position in the EXIF. */
function costumePhoto(colour: string) {
  return sharp({ create: { width: 900, height: 1200, channels: 3, background: colour } })
    .withExif({
      IFD0: { ImageDescription: "on the porch" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "41/1 59/1 26/1" },
    })
    .jpeg()
    .toBuffer();
}

async function shoot(page: Page, name: string, width: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  await page.screenshot({ path: `/tmp/costume-${name}-${width}.png`, fullPage: true });
}

test("a player sends costume photos and staff ask for changes, then approve", async ({
  page,
  browser,
  baseURL,
  isMobile,
  managerState,
}, testInfo) => {
  const width = testInfo.project.name;
  const tag = `${width === "desktop" ? "Desk" : "Phone"}${Date.now() % 100_000}`;
  const { email } = await createMember({ first: "Clementine", last: `Rook${tag}` });
  const name = `Clementine Rook${tag}`;
  const title = `Costume Night ${tag}`;
  const date = daysBefore(clubToday(), -19);

  // The manager adds an event 19 days away and registers the player for it.
  const managerContext = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    isMobile,
    storageState: managerState,
  });
  const manager = await managerContext.newPage();
  await addEvent(manager, { title, date, status: "future" });
  await manager.goto("/attendance-tool");
  await manager.getByLabel("Event", { exact: true }).selectOption({ label: `${title} (${formatEventDate(date)})` });
  await manager.getByLabel("Find a member").fill(`Rook${tag}`);
  await manager.getByLabel(new RegExp(name)).check();
  await manager.getByRole("button", { name: "Add Attendance" }).click();
  await expect(manager.getByText("Attendance added successfully!")).toBeVisible();

  // The player finds the page in the Forms menu: due in five days, nothing sent yet.
  await signInByPost(page, email, "Lantern#1877");
  await page.goto("/");
  const nav = await mainNav(page, isMobile);
  // On the bar the forms drop down from "Forms"; the phone menu lists them at once.
  if (!isMobile) await nav.locator("summary", { hasText: "Forms" }).click();
  await nav.getByRole("link", { name: "Costume Photos" }).click();
  await expect(page).toHaveURL(/\/costume$/);
  const event = page.getByRole("region", { name: title });
  await expect(event.getByText("due in 5 days")).toBeVisible();
  await expect(event.getByText(formatEventDate(daysBefore(date, 14)))).toBeVisible();
  await expect(event.getByTestId("costume-status")).toHaveText("No photo yet");
  await expectAccessible(page);
  await shoot(page, "member-empty", width);

  await event
    .getByLabel("Your costume photo")
    .setInputFiles({ name: "porch.jpg", mimeType: "image/jpeg", buffer: await costumePhoto("#7a4b2a") });
  await event.getByRole("button", { name: "Upload photo" }).click();
  await expect(event.getByText("Photo uploaded. Staff will review it.")).toBeVisible();
  await expect(event.getByTestId("costume-status")).toHaveText("Waiting for review");
  const thumbnail = event.getByRole("img", { name: /^Your costume, 1 of 1, sent/ });
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);

  // Staff open the event on the review page and ask for changes.
  await manager.goto("/tools");
  await manager.getByRole("link", { name: "View Costume Photos" }).click();
  await expect(manager.getByRole("heading", { level: 1, name: "Costume Photos" })).toBeVisible();
  // The event is opened by its address: the list shows upcoming events a page at a time, and the suite adds many.
  await manager.goto(`/view-costumes?event=${await eventIdOf(manager, `${title} (${formatEventDate(date)})`)}`);
  const entry = manager.getByRole("article", { name: new RegExp(name) });
  await expect(entry.getByTestId("costume-status")).toHaveText("Waiting for review");
  // One status on the card, the costume's own, then who has taken it; the event says how many wait.
  await expect(entry.getByTestId("queue-status")).toHaveCount(0);
  await expect(entry.getByTestId("queue-assignee")).toHaveText("Nobody has taken it");
  const opened = manager.getByRole("listitem").filter({ has: manager.getByRole("link", { name: title }) });
  await expect(opened.getByTestId("fresh-count")).toHaveText("· 1 waiting for review");
  await expect(entry.getByRole("img", { name: new RegExp(`^${name}'s costume, 1 of 1, sent`) })).toBeVisible();
  await expectAccessible(manager);
  await entry.getByRole("button", { name: "Ask for changes" }).click();
  await expect(entry.getByRole("alert")).toHaveText("Please write a note saying what to change");
  await entry.getByLabel("Note to Clementine").fill("The sneakers give you away: boots, please.");
  await entry.getByRole("button", { name: "Ask for changes" }).click();
  await expect(entry.getByText("Changes requested. The player sees your note on their costume page.")).toBeVisible();
  await expect(entry.getByTestId("costume-status")).toHaveText("Changes requested");
  await shoot(manager, "staff-review", width);

  // The player reads the note and sends a better photo.
  await page.reload();
  await expect(event.getByTestId("costume-status")).toHaveText("Changes requested");
  await expect(event.getByTestId("costume-note")).toContainText("The sneakers give you away: boots, please.");
  await event
    .getByLabel("Another photo")
    .setInputFiles({ name: "boots.jpg", mimeType: "image/jpeg", buffer: await costumePhoto("#3c2a1c") });
  await event.getByRole("button", { name: "Upload photo" }).click();
  await expect(event.getByTestId("costume-status")).toHaveText("Waiting for review");
  await expect(event.getByRole("img", { name: /^Your costume, 2 of 2, sent/ })).toBeVisible();
  await shoot(page, "member-sent", width);

  // Staff approve.
  await manager.reload();
  await expect(entry.getByTestId("costume-status")).toHaveText("Waiting for review");
  await entry.getByRole("button", { name: "Approve" }).click();
  await expect(entry.getByText("Approved. The player sees it on their costume page.")).toBeVisible();
  await managerContext.close();

  await page.reload();
  await expect(event.getByTestId("costume-status")).toHaveText("Approved");
  await expect(event.getByText("due in 5 days")).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, "member-approved", width);
});

/** The e2e player of this width, registered by the manager for a new upcoming event; its title and id. */
async function eventFor(manager: Page, width: string, name: string, daysAway: number) {
  const player = E2E_PLAYERS[width as keyof typeof E2E_PLAYERS];
  const tag = `${width === "desktop" ? "Desk" : "Phone"}${Date.now() % 100_000}`;
  const title = `${name} ${tag}`;
  const date = daysBefore(clubToday(), -daysAway);
  await addEvent(manager, { title, date, status: "future" });
  const label = `${title} (${formatEventDate(date)})`;
  await addAttendance(manager, label, player.email, `player-${width}`, "Watchtower");
  return { title, id: await eventIdOf(manager, label) };
}

/**
 * An event's id, read off its event-day sheet's link on the attendance tool, which lists every
 * event: the review page lists upcoming events a page at a time, and the whole suite adds many.
 */
async function eventIdOf(manager: Page, label: string): Promise<string> {
  await manager.goto("/attendance-tool");
  const href = await manager.getByRole("link", { name: `Event-day sheet: ${label}`, exact: true }).getAttribute("href");
  return href!.split("/").pop()!;
}

/** The page's headings go down one level at a time (h1, h2, h3), never skipping one. */
async function expectHeadingsInOrder(page: Page) {
  const levels = await page
    .locator("main")
    .getByRole("heading")
    .evaluateAll((headings) => headings.map((h) => Number(h.getAttribute("aria-level") ?? h.tagName.slice(1))));
  expect(levels[0]).toBe(1);
  const skips = levels.flatMap((level, i) =>
    i > 0 && level > levels[i - 1]! + 1 ? [`h${levels[i - 1]} → h${level}`] : [],
  );
  expect(skips, `headings ${levels.join(" ")}`).toEqual([]);
}

/** A browser signed in from a kept session, with or without JavaScript. */
async function signedInPage(
  browser: Browser,
  baseURL: string | undefined,
  page: Page,
  isMobile: boolean,
  state: SignedInState,
  javaScriptEnabled = true,
) {
  const context = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    isMobile,
    javaScriptEnabled,
    storageState: state,
  });
  return context.newPage();
}

async function upload(region: ReturnType<Page["getByRole"]>, label: string, colour: string) {
  await region
    .getByLabel(label)
    .setInputFiles({ name: "costume.jpg", mimeType: "image/jpeg", buffer: await costumePhoto(colour) });
  await region.getByRole("button", { name: /^Upload photo/ }).click();
  await expect(region.getByText("Photo uploaded. Staff will review it.")).toBeVisible();
}

// What is checked here (the refusal, the headings' order, where the keyboard is) does not depend on the width.
test(
  "a verdict refused because a new photo arrived shows the new photo, and the next verdict is accepted",
  { tag: ANY_WIDTH },
  async ({ page, browser, baseURL, isMobile, managerState, playerState }, testInfo) => {
    const width = testInfo.project.name;
    const who = width === "desktop" ? "Wyatt Tanner" : "Wyatt Bright";
    const manager = await signedInPage(browser, baseURL, page, isMobile, managerState);
    const { title, id } = await eventFor(manager, width, "New Photo Night", 30);
    await manager.goto(`/view-costumes?event=${id}`);

    await withSession(page, playerState);
    await page.goto("/costume");
    const event = page.getByRole("region", { name: title });
    await upload(event, "Your costume photo", "#7a4b2a");
    await expectHeadingsInOrder(page);

    // Staff open the event and see the first photo.
    await manager.reload();
    const entry = manager.getByRole("article", { name: new RegExp(who) });
    await expect(entry.getByRole("img", { name: new RegExp(`^${who}'s costume, 1 of 1, sent`) })).toBeVisible();
    await expectHeadingsInOrder(manager);

    // Meanwhile the member sends another.
    await upload(event, "Another photo", "#3c2a1c");
    await expect(event.getByRole("img", { name: /^Your costume, 2 of 2, sent/ })).toBeVisible();

    // Approving what staff have not seen is refused, and the new photo comes into view.
    await entry.getByRole("button", { name: /^Approve/ }).click();
    await expect(entry.getByRole("alert")).toHaveText(
      "New photos arrived since you opened this page. Please look at them before deciding.",
    );
    await expect(entry.getByRole("img", { name: new RegExp(`^${who}'s costume, 2 of 2, sent`) })).toBeVisible();
    await page.reload();
    await expect(event.getByTestId("costume-status")).toHaveText("Waiting for review");

    // Having seen it, staff approve, and it is recorded.
    await entry.getByRole("button", { name: /^Approve/ }).click();
    await expect(entry.getByText("Approved. The player sees it on their costume page.")).toBeVisible();
    await expect(entry.getByTestId("costume-status")).toHaveText("Approved");
    // The keyboard stays on the button pressed.
    await expect(entry.getByRole("button", { name: /^Approve/ })).toBeFocused();
    await manager.context().close();
    await page.reload();
    await expect(event.getByTestId("costume-status")).toHaveText("Approved");
    await page.goto("/events");
    await expectHeadingsInOrder(page);
  },
);

test("without JavaScript, an upload and a verdict come back to their event and entry, with the outcome in view", async ({
  page,
  browser,
  baseURL,
  isMobile,
  managerState,
  playerState,
}, testInfo) => {
  const width = testInfo.project.name;
  const who = width === "desktop" ? "Wyatt Tanner" : "Wyatt Bright";
  const setUp = await signedInPage(browser, baseURL, page, isMobile, managerState);
  // Two events: the later one is lower on the member's page.
  await eventFor(setUp, width, "Early Night", 25);
  const { title, id } = await eventFor(setUp, width, "Later Night", 26);
  await setUp.context().close();

  const member = await signedInPage(browser, baseURL, page, isMobile, playerState, false);
  await member.goto("/costume");
  const event = member.getByRole("region", { name: title });
  await upload(event, "Your costume photo", "#7a4b2a");
  await expect(member).toHaveURL(new RegExp(`/costume\\?done=uploaded&event=${id}#costume-${id}$`));
  await expect(event.getByText("Photo uploaded. Staff will review it.")).toBeInViewport();
  // A reload fetches the page again and sends nothing: still one photo.
  await member.reload();
  await expect(event.getByRole("img", { name: /^Your costume, 1 of 1, sent/ })).toBeVisible();

  const manager = await signedInPage(browser, baseURL, page, isMobile, managerState, false);
  await manager.goto(`/view-costumes?event=${id}`);
  const entry = manager.getByRole("article", { name: new RegExp(who) });
  await entry.getByRole("button", { name: /^Ask for changes/ }).click();
  await expect(manager).toHaveURL(new RegExp(`\\?event=${id}#costume-`));
  await expect(entry.getByRole("alert")).toHaveText("Please write a note saying what to change");
  await expect(entry.getByRole("alert")).toBeInViewport();
  await entry.getByLabel(/^Note to Wyatt/).fill("Lose the watch.");
  await entry.getByRole("button", { name: /^Ask for changes/ }).click();
  await expect(entry.getByText("Changes requested. The player sees your note on their costume page.")).toBeInViewport();
  await expect(entry.getByTestId("costume-status")).toHaveText("Changes requested");

  await member.goto("/costume");
  await expect(event.getByTestId("costume-status")).toHaveText("Changes requested");
  await expect(event.getByTestId("costume-note")).toContainText("Lose the watch.");
  await member.context().close();
  await manager.context().close();
});
