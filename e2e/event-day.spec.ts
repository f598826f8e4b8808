import type { Locator, Page, Request } from "@playwright/test";
import { ANY_WIDTH } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import {
  addAttendance,
  addEvent,
  createMember,
  e2eManager,
  mainNav,
  screenshots,
  signIn,
  signInByPost,
} from "./helpers";

test.describe.configure({ timeout: 180_000 });

/** What the event-day worker keeps in this browser: the sheets, and the files they load (styles, scripts, fonts, icon). */
function keptSheets(page: Page) {
  return page.evaluate(async () => {
    const names = await caches.keys();
    const entries = names.includes("event-day-sheets")
      ? (await (await caches.open("event-day-sheets")).keys()).map((request) => new URL(request.url).pathname)
      : [];
    const kept = entries.filter((path) => path.startsWith("/tools/event-day/"));
    const files = entries.filter((path) => !kept.includes(path)).sort();
    const workers = (await navigator.serviceWorker.getRegistrations()).map(
      (registration) => new URL(registration.scope).pathname,
    );
    return { names, kept, files, workers };
  });
}

// The journey's checks (the worker, the copy offline, signing out and in) do not depend on the
// width; the sheet at a phone's width is the next test's.
test(
  "a manager's event-day sheet: by cabin, printable, readable offline once opened (styles and scripts too, also after signing out and in again), gone at sign-out",
  { tag: ANY_WIDTH },
  async ({ page, context, isMobile }, testInfo) => {
    const width = testInfo.project.name;
    const tag = `${width === "desktop" ? "Desk" : "Phone"}${Date.now() % 100_000}`;
    const { email: player } = await createMember({ first: "Ike", last: `Sheet${tag}` });
    const manager = e2eManager();
    await page.goto("/auth");
    await signIn(page, manager.email, manager.password);
    await expect(page).toHaveURL(/\/$/);

    // The manager's own emergency contact, so the sheet has one to show.
    await page.goto("/profile?tab=profile&edit=contact");
    await page.getByLabel("Contact name").fill("Martha Tanner");
    await page.getByLabel("Contact phone").fill("+1 860 555 0142");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("+1 860 555 0142")).toBeVisible();

    const title = `Day Sheet ${tag}`;
    await addEvent(page, { title, date: "2026-12-11", status: "future" });
    const eventLabel = `${title} (Friday, December 11, 2026)`;
    // The manager orders for the event twice: goods worth thousands of dollars, then a little meat.
    for (const quantities of [{ "5 Cylinders": "80", "20 Vials": "12", Coal: "4" }, { Meat: "2" }]) {
      await page.goto("/merchant-orders");
      await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
      for (const [item, quantity] of Object.entries(quantities))
        await page.getByLabel(`Quantity of ${item}`, { exact: true }).fill(quantity);
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();
    }
    await addAttendance(page, eventLabel, manager.email, "Boss", "Arctic Fox");
    await addAttendance(page, eventLabel, player, `Sheet${tag}`, "Watchtower");

    // Opened from the attendance tool, as a whole page.
    await page.getByRole("link", { name: `Event-day sheet: ${eventLabel}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Event-Day Sheet" })).toBeVisible();
    const sheetUrl = page.url();
    expect(new URL(sheetUrl).pathname).toMatch(/^\/tools\/event-day\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Arctic Fox (1)" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Watchtower (1)" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Call Martha Tanner on +1 860 555 0142" })).toHaveAttribute(
      "href",
      "tel:+18605550142",
    );
    await expect(page.getByRole("rowheader", { name: new RegExp(`Ike Sheet${tag}`) })).toBeVisible();
    await expect(page.getByText("No emergency contact")).toBeVisible();
    // Money is written with thousands separated.
    await expect(page.getByTestId("total-to-collect")).toHaveText("$8,406.00 Hopewell Dollars");
    const managerRow = page.getByRole("row", { name: /Ada Boss/ });
    await expect(managerRow.getByRole("cell").filter({ hasText: "$8,406.00" })).toBeVisible();
    await expect(page.getByTestId("sheet-status")).toHaveText("");
    await expect(page.getByTestId("fetched-at")).toHaveText(
      /^Fetched at \d{1,2}:\d{2} [AP]M on \w+day, \w{3} \d{1,2}$/,
    );
    await expectAccessible(page);

    // The worker, scoped to the sheets only, holds a copy of this one.
    await expect
      .poll(async () => (await keptSheets(page)).kept, { timeout: 15_000 })
      .toEqual([new URL(sheetUrl).pathname]);
    expect((await keptSheets(page)).workers).toEqual(["/tools/event-day/"]);
    // With what it needs to look right and run: the stylesheet, its font, the scripts, the icon, the icons' sprite.
    const files = (await keptSheets(page)).files;
    expect(files).toEqual(
      expect.arrayContaining([
        "/favicon.svg",
        expect.stringMatching(/^\/assets\/app-[\w-]+\.css$/),
        expect.stringMatching(/^\/assets\/rye-latin-400-normal-[\w-]+\.woff2$/),
        expect.stringMatching(/^\/assets\/icons-[\w-]+\.svg$/),
      ]),
    );
    expect(files.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(3);

    // "Handed out" from the keyboard: the button goes with its order, and the keyboard moves on to
    // the attendee's next order, then to their name; each press is said politely.
    await managerRow.getByRole("button", { name: /^Handed out\s*: Ada Boss's order 1 of 2$/ }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\?handedOut=([\w-]+)&order=[\w-]+#attendee-\1$/);
    await expect(page.getByTestId("sheet-status")).toHaveText(
      "Handed out: Ada Boss's order. 1 more order to hand out to them.",
    );
    await expect(managerRow.getByRole("button", { name: /^Handed out\s*: Ada Boss's order$/ })).toBeFocused();
    await expect(managerRow).toContainText("Marked as handed out.");
    await expect(managerRow).not.toContainText("80 × 5 Cylinders");
    await expect(page.getByTestId("total-to-collect")).toHaveText("$6.00 Hopewell Dollars");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("sheet-status")).toHaveText(
      "Handed out: Ada Boss's order. No more orders to hand out to them.",
    );
    await expect(page.getByRole("rowheader", { name: /Ada Boss/ })).toBeFocused();
    await expect(managerRow).toContainText("No orders");
    await expect(page.getByTestId("total-to-collect")).toHaveText("$0.00 Hopewell Dollars");
    await expectAccessible(page);

    await page.screenshot({ path: `/tmp/event-day-${width}.png`, fullPage: true });
    await page.emulateMedia({ media: "print" });
    await expect(page.locator("body > header")).toBeHidden();
    await page.screenshot({ path: `/tmp/event-day-${width}-print.png`, fullPage: true });
    await page.pdf({ path: `/tmp/event-day-print.pdf`, format: "Letter", printBackground: true });
    await page.emulateMedia({ media: "screen" });

    // No signal at the venue: the page still opens, from the copy, and says when it was fetched.
    await context.setOffline(true);
    const offline = await page.reload();
    expect(offline?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole("heading", { name: "Arctic Fox (1)" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Call Martha Tanner on +1 860 555 0142" })).toBeVisible();
    await expect(page.getByTestId("fetched-at")).toHaveText(/^Fetched at /);
    // The copy is of the sheet after the orders were handed out (pressed with scripts, so no page was loaded).
    await expect(page.getByRole("row", { name: /Ada Boss/ })).toContainText("No orders");
    await expect(page.getByTestId("total-to-collect")).toHaveText("$0.00 Hopewell Dollars");
    await page.screenshot({ path: `/tmp/event-day-${width}-offline.png`, fullPage: true });

    // Signing out (with signal again) drops the copy and the worker.
    await context.setOffline(false);
    await page.goto("/");
    await (await mainNav(page, isMobile)).getByRole("button", { name: "Sign Out" }).click();
    // Signed out: no Sign Out form left (on a phone the menu holding "Login / Sign Up" is closed).
    await expect(page.locator('form[action="/logout"]')).toHaveCount(0);
    await expect.poll(async () => keptSheets(page)).toEqual({ names: [], kept: [], files: [], workers: [] });
    await context.setOffline(true);
    await expect(page.goto(sheetUrl)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await context.setOffline(false);

    // Signed in again in the same tab. Sign-out emptied the browser's HTTP cache, while this tab
    // still holds the site's styles and scripts in memory and loads them from there: the copy kept
    // now must hold them itself, or offline it is bare HTML that no script brings to life.
    await page.goto("/auth");
    await signIn(page, manager.email, manager.password);
    await expect(page).toHaveURL(/\/$/);
    // Two more orders of a little meat, one handed out now (with scripts), one left for later.
    for (let order = 0; order < 2; order++) {
      await page.goto("/merchant-orders");
      await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
      await page.getByLabel("Quantity of Meat", { exact: true }).fill("1");
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();
    }
    await page.goto(sheetUrl);
    await expect
      .poll(async () => (await keptSheets(page)).kept, { timeout: 15_000 })
      .toEqual([new URL(sheetUrl).pathname]);
    const bossRow = page.getByRole("row", { name: /Ada Boss/ });
    await bossRow.getByRole("button", { name: /^Handed out\s*: Ada Boss's order 1 of 2$/ }).click();
    await expect(page.getByTestId("sheet-status")).toHaveText(
      "Handed out: Ada Boss's order. 1 more order to hand out to them.",
    );
    await expect.poll(() => keptSheetText(page, sheetUrl), { timeout: 15_000 }).toContain("$3.00 Hopewell Dollars");

    await context.setOffline(true);
    const missing: string[] = [];
    const noteMissing = (request: Request) => missing.push(request.url());
    page.on("requestfailed", noteMissing);
    const again = await page.reload();
    expect(again?.fromServiceWorker()).toBe(true);
    await expectOfflineSheet(page);
    // The copy is of the sheet after that press.
    await expect(bossRow).toContainText("1 × Meat");
    await expect(page.getByTestId("total-to-collect")).toHaveText("$3.00 Hopewell Dollars");
    // "Handed out" without signal: nothing is sent, the sheet stays, and the row says why.
    const handOutMeat = bossRow.getByRole("button", { name: /^Handed out\s*: Ada Boss's order$/ });
    await handOutMeat.click();
    const notSent = "You are offline: this order is not marked as handed out. Press again once you have signal.";
    await expect(bossRow).toContainText(notSent);
    await expect(page.getByTestId("sheet-status")).toHaveText(notSent);
    await expect(page.getByRole("heading", { level: 1, name: "Event-Day Sheet" })).toBeVisible();
    await expect(page.getByTestId("total-to-collect")).toHaveText("$3.00 Hopewell Dollars");
    await expectAccessible(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshots(page, [1280, 390], (px) => `/tmp/event-day-offline-after-sign-in-again-${px}.png`);
    // The same copy in a new tab, which has nothing of the site in memory.
    const tab = await context.newPage();
    tab.on("requestfailed", noteMissing);
    await tab.goto(sheetUrl);
    await expectOfflineSheet(tab);
    await expect(tab.getByRole("row", { name: /Ada Boss/ })).toContainText("1 × Meat");
    // Nothing the sheet loads is missing. React Router's look-ups of the routes its forms and links
    // lead to (/__manifest) are not files of the page: offline they fail, and it goes on without them.
    expect(missing.filter((url) => new URL(url).pathname !== "/__manifest")).toEqual([]);
    await tab.close();

    // With signal again the note goes, and the press is sent.
    await context.setOffline(false);
    await expect(bossRow).not.toContainText(notSent);
    await handOutMeat.click();
    await expect(page.getByTestId("sheet-status")).toHaveText(
      "Handed out: Ada Boss's order. No more orders to hand out to them.",
    );
    await expect(page.getByTestId("total-to-collect")).toHaveText("$0.00 Hopewell Dollars");
  },
);

// What the width changes: the sheet laid out for the screen it is read on, and finding one
// attendee on it at the gate, with signal and without.
test("the event-day sheet fits the screen's width, by cabin, and finds an attendee by search, cabin or orders, also offline", async ({
  page,
  context,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  const width = testInfo.project.name;
  const tag = `Look${width === "desktop" ? "Desk" : "Phone"}${Date.now() % 100_000}`;
  const [{ email: player }, { email: other }] = await Promise.all([
    createMember({ first: "Ike", last: `Sheet${tag}` }),
    createMember({ first: "Una", last: `Gate${tag}` }),
  ]);
  await withSession(page, managerState);
  const title = `Day Sheet ${tag}`;
  await addEvent(page, { title, date: "2026-12-11", status: "future" });
  const eventLabel = `${title} (Friday, December 11, 2026)`;
  // The manager orders a little meat for the event: the only orders to hand out.
  await page.goto("/merchant-orders");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
  await page.getByLabel("Quantity of Meat", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();
  await addAttendance(page, eventLabel, e2eManager().email, "Boss", "Camping");
  await addAttendance(page, eventLabel, player, `Sheet${tag}`, "Watchtower");
  await addAttendance(page, eventLabel, other, `Gate${tag}`, "Arctic Fox");
  await page.getByRole("link", { name: `Event-day sheet: ${eventLabel}` }).click();
  await expect(page.getByRole("heading", { name: "Watchtower (1)" })).toBeVisible();
  const ike = page.getByRole("rowheader", { name: new RegExp(`Ike Sheet${tag}`) });
  const una = page.getByRole("rowheader", { name: new RegExp(`Una Gate${tag}`) });
  const boss = page.getByRole("rowheader", { name: /Ada Boss/ });
  await expect(ike).toBeVisible();
  // Nothing runs off the side of the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await expectAccessible(page);
  await page.screenshot({ path: `/tmp/event-day-look-${width}.png`, fullPage: true });
  await expectFinderWorks(page, { ike, una, boss, tag });

  // Without signal, from the copy kept on this device: the search and the filter work the same.
  await expect
    .poll(async () => (await keptSheets(page)).kept, { timeout: 15_000 })
    .toEqual([new URL(page.url()).pathname]);
  await context.setOffline(true);
  expect((await page.reload())?.fromServiceWorker()).toBe(true);
  await expectOfflineSheet(page);
  await expectFinderWorks(page, { ike, una, boss, tag });
  await context.setOffline(false);

  // Without JavaScript the whole sheet is there, with no search that could not work, and the
  // cabin jumps are plain links.
  const plain = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    javaScriptEnabled: false,
    storageState: managerState,
  });
  const noScript = await plain.newPage();
  await noScript.goto(new URL(page.url()).pathname);
  await expect(noScript.getByRole("rowheader")).toHaveCount(3);
  await expect(noScript.getByLabel("Find an attendee")).toHaveCount(0);
  await noScript
    .getByRole("navigation", { name: "Jump to a cabin" })
    .getByRole("link", { name: "Watchtower (1)" })
    .click();
  await expect(noScript).toHaveURL(/#cabin-watchtower$/);
  await expect(noScript.getByRole("heading", { name: "Watchtower (1)" })).toBeInViewport();
  await plain.close();
});

/** The sheet's finder, as a manager at the gate uses it: search, "Orders to hand out only", a jump to a cabin. */
async function expectFinderWorks(
  page: Page,
  { ike, una, boss, tag }: { ike: Locator; una: Locator; boss: Locator; tag: string },
) {
  const search = page.getByLabel("Find an attendee");
  const status = page.getByTestId("finder-status");
  await search.fill(`gate${tag.toLowerCase()}`);
  await expect(una).toBeVisible();
  await expect(ike).toHaveCount(0);
  await expect(boss).toHaveCount(0);
  await expect(status).toHaveText("1 attendee of 3 shown.");
  await expect(page.getByRole("heading", { name: "Watchtower (1)" })).toHaveCount(0);
  await search.fill("nobody-by-this-name");
  await expect(page.getByText("Nobody here matches “nobody-by-this-name”.")).toBeVisible();
  await page.getByRole("button", { name: "Show everyone" }).click();
  await expect(search).toHaveValue("");
  await expect(page.getByRole("rowheader")).toHaveCount(3);
  await expect(status).toHaveText("");

  const ordersOnly = page.getByLabel("Orders to hand out only");
  await ordersOnly.check();
  await expect(boss).toBeVisible();
  await expect(page.getByRole("rowheader")).toHaveCount(1);
  await expect(status).toHaveText("1 attendee of 3 shown.");
  await ordersOnly.uncheck();
  await expect(page.getByRole("rowheader")).toHaveCount(3);

  // The jump: the cabin's heading comes into view and takes the keyboard.
  const jumps = page.getByRole("navigation", { name: "Jump to a cabin" });
  await expect(jumps.getByRole("link")).toHaveText(["Arctic Fox (1)", "Watchtower (1)", "Camping (1)"]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await jumps.getByRole("link", { name: "Camping (1)" }).click();
  const camping = page.getByRole("heading", { name: "Camping (1)" });
  await expect(camping).toBeInViewport();
  await expect(camping).toBeFocused();
  expect(await page.evaluate(() => scrollX)).toBe(0);
  await page.getByRole("link", { name: "Back to top from Camping" }).click();
  await expect(search).toBeInViewport();
}

/**
 * The kept copy offline as the manager sees it: styled by the site's stylesheet and its font,
 * and its scripts running (they say "You are offline").
 */
async function expectOfflineSheet(page: Page) {
  await expect(
    page.getByRole("status").filter({ hasText: "You are offline: this is the copy kept on this device." }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Event-Day Sheet" })).toHaveCSS("font-family", /^Rye\b/);
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(20, 16, 12)");
  const ryeLoaded = () =>
    page.evaluate(() =>
      [...document.fonts].some((font) => font.family.replace(/"/g, "") === "Rye" && font.status === "loaded"),
    );
  await expect.poll(ryeLoaded).toBe(true);
}

/** The text of the copy of `sheetUrl` the worker keeps, or "" when it keeps none. */
function keptSheetText(page: Page, sheetUrl: string) {
  return page.evaluate(async (url) => {
    const kept = await (await caches.open("event-day-sheets")).match(new URL(url).pathname);
    return kept ? kept.text() : "";
  }, sheetUrl);
}

// The refusal and the absent worker do not depend on the width.
test("a player is refused the sheets and no worker is registered", { tag: ANY_WIDTH }, async ({ page }) => {
  const { email } = await createMember({ first: "Una", last: `Refused${Date.now() % 100_000}` });
  await signInByPost(page, email, "Lantern#1877");
  const response = await page.goto("/tools/event-day");
  expect(new URL(page.url()).pathname).toBe("/");
  expect(response?.status()).toBe(200);
  expect((await keptSheets(page)).workers).toEqual([]);
});
