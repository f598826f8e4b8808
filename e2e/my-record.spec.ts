import type { Page } from "@playwright/test";
import sharp from "sharp";
import { PEL_QUESTIONS } from "../app/game/pel";
import { daysBefore } from "../app/game/costume";
import { clubToday, formatEventDate } from "../app/lib/dates";
import { ANY_WIDTH } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { addAttendance, addEvent, createMember, mainNav, signInByPost } from "./helpers";

// Sign-ins, events made by a manager, forms filled and a throttled upload on a shared 2-core machine.
test.describe.configure({ timeout: 150_000 });

/** The id of an event the page's event choice offers, by its label. */
async function eventIdOf(page: Page, label: string): Promise<string> {
  return page
    .getByLabel("Event", { exact: true })
    .locator("option", { hasText: label })
    .getAttribute("value") as Promise<string>;
}

async function answerEvery(page: Page, text: (key: string) => string) {
  for (const question of PEL_QUESTIONS) await page.getByLabel(question.label, { exact: true }).fill(text(question.key));
}

test(`the member's record shows an order and a post-event letter with staff's reply, from the profile and the letter's form ${ANY_WIDTH}`, async ({
  page,
  browser,
  baseURL,
  managerState,
}) => {
  const tag = `Rec${Date.now() % 100_000}`;
  const held = { title: `Record Vigil ${tag}`, date: "2024-03-08" };
  const coming = { title: `Record Fair ${tag}`, date: "2099-03-13" };
  const reply = `The lantern you saw was ours, ${tag}.`;
  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { ...held, status: "past" });
  await addEvent(manager, { ...coming, status: "future" });

  const member = await createMember({ first: "Record", last: `Keeper${tag}` });
  await signInByPost(page, member.email, member.password);
  await page.goto("/pels");
  const heldId = await eventIdOf(page, held.title);
  await page.getByLabel("Event", { exact: true }).selectOption(heldId);
  await page.getByLabel("Character name").fill(`Ivy Lantern ${tag}`);
  await answerEvery(page, (key) => `On ${key}: the lanterns went out one by one.`);
  await page.getByRole("button", { name: "Submit Letter" }).click();
  await expect(page.getByRole("heading", { name: "Letter Received!" })).toBeVisible();

  await page.goto("/merchant-orders");
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${coming.title} (${formatEventDate(coming.date)})` });
  await page.getByLabel("Quantity of Salt").fill("2");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();

  // One tap from the profile: the record lists both, the letter still without a reply.
  await page.goto("/profile");
  await page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "My Record" }).click();
  await expect(page).toHaveURL(/\/profile\/record$/);
  await expect(page).toHaveTitle("My Record · Hopewell");
  const letter = page.getByRole("article", { name: `Post-event letter · ${held.title}` });
  const order = page.getByRole("article", { name: `Merchant order · ${coming.title}` });
  await expect(letter.getByTestId("record-status")).toHaveText("Sent, no reply yet");
  await expect(order.getByTestId("record-status")).toHaveText("To collect at the event");
  await expect(order).toContainText("2 items · $6.00");
  const entryPath = await letter.getByRole("link").getAttribute("href");

  // Staff reply to the letter, on its review page.
  const pelId = entryPath!.split("/").pop();
  await manager.goto(`/view-pels?event=${heldId}&answer=${pelId}`);
  const entry = manager.getByRole("article").filter({ hasText: `Ivy Lantern ${tag}` });
  await entry.getByLabel(/^Reply to/).fill(reply);
  await entry.getByRole("button", { name: "Send reply" }).click();
  await expect(manager.getByText("Reply sent. The member reads it on their profile.")).toBeVisible();
  await managerContext.close();

  // One tap from the letter's form: the record at the letters, now answered.
  await page.goto("/pels");
  await page.getByTestId("pel-count").getByRole("link").click();
  await expect(page).toHaveURL(/\/profile\/record\?kind=pel$/);
  await expect(letter.getByTestId("record-status")).toHaveText("Answered");
  await expect(letter.getByTestId("record-replies")).toContainText(reply);
  await expect(order).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Post-event letters (1)" })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);

  // The letter opens whole, with the reply.
  await letter.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`${entryPath}$`));
  const opened = page.getByTestId("record-entry");
  await expect(opened.getByRole("heading", { level: 2 })).toHaveText(`Post-event letter · ${held.title}`);
  await expect(opened).toContainText(reply);
  await expect(opened).toContainText("On followUp: the lanterns went out one by one.");
  await expectAccessible(page);
});

test("the letter's form at phone width: required marks, the event from the link, and a draft kept on the device", async ({
  page,
  browser,
  baseURL,
  isMobile,
  managerState,
  playerState,
}) => {
  test.skip(!isMobile, "the phone's width is the subject");
  const tag = `Draft${Date.now() % 100_000}`;
  const first = { title: `Draft Dance ${tag}`, date: "2024-04-12" };
  const second = { title: `Draft Hunt ${tag}`, date: "2024-04-19" };
  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { ...first, status: "past" });
  await addEvent(manager, { ...second, status: "past" });
  await managerContext.close();

  await withSession(page, playerState);
  await page.goto("/pels");
  const chosen = await eventIdOf(page, first.title);
  // The events page's link names the event: the form opens with it chosen.
  await page.goto(`/pels?event=${chosen}`);
  const event = page.getByLabel("Event", { exact: true });
  await expect(event).toHaveValue(chosen);
  // A link to an event not open for letters chooses nothing.
  await page.goto("/pels?event=00000000-0000-4000-8000-000000000000");
  await expect(event).toHaveValue("");

  await page.goto(`/pels?event=${chosen}`);
  await expect(page.getByTestId("required-note")).toBeInViewport();
  await expect(page.getByTestId("required-note")).toHaveText(
    "Every field is required, each marked with an asterisk (*).",
  );
  // Each field is marked on screen, and said to be required to a screen reader.
  await expect(page.locator("[data-required-mark]")).toHaveCount(2 + PEL_QUESTIONS.length);
  await expect(page.locator("label[for='eventId'] + [data-required-mark]")).toBeInViewport();
  await expect(event).toHaveAttribute("required", "");
  for (const question of PEL_QUESTIONS.slice(0, 3))
    await expect(page.getByLabel(question.label, { exact: true })).toHaveAttribute("required", "");
  await expect(page.getByTestId("draft-notice")).toContainText("kept on this device as you write");
  // No sideways scroll on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // Half a letter, then the tab is closed.
  const [scary, favourite] = PEL_QUESTIONS;
  await page.getByLabel("Character name").fill(`Nell Draper ${tag}`);
  await page.getByLabel(scary.label, { exact: true }).fill(`The well at midnight, ${tag}.`);
  await page.getByLabel(favourite.label, { exact: true }).fill("The fiddler's last reel.");
  const context = page.context();
  await page.close();

  // Opened again, without the link: the draft is back, with its event.
  const again = await context.newPage();
  await again.goto("/pels");
  await expect(again.getByText(/^Your draft from .* is back in the form\.$/)).toBeVisible();
  await expect(again.getByLabel("Event", { exact: true })).toHaveValue(chosen);
  await expect(again.getByLabel(scary.label, { exact: true })).toHaveValue(`The well at midnight, ${tag}.`);
  await expect(again.getByLabel(favourite.label, { exact: true })).toHaveValue("The fiddler's last reel.");
  await expect(again.getByLabel("Character name")).toHaveValue(`Nell Draper ${tag}`);
  await expectAccessible(again);

  await answerEvery(again, (key) => `On ${key}: ${tag}.`);
  await again.getByRole("button", { name: "Submit Letter" }).click();
  await expect(again.getByRole("heading", { name: "Letter Received!" })).toBeVisible();
  // Sent: the draft is gone from the device.
  await again.goto("/pels");
  await expect(again.getByLabel(scary.label, { exact: true })).toHaveValue("");
  await expect(again.getByText(/is back in the form/)).toHaveCount(0);
  expect(
    await again.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("hopewell:draft:"))),
  ).toEqual([]);
});

/** A photo of `bytes` or so that does not compress: noise, as a large phone photo is. */
async function noisyJpeg(side: number) {
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

test(`costume photos and research show the bytes sent while a slow line uploads them ${ANY_WIDTH}`, async ({
  page,
  browser,
  baseURL,
  managerState,
}) => {
  const tag = `Slow${Date.now() % 100_000}`;
  const title = `Slow Road ${tag}`;
  const date = daysBefore(clubToday(), -40);
  const member = await createMember({ first: "Slow", last: `Line${tag}` });
  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { title, date, status: "future" });
  await addAttendance(manager, `${title} (${formatEventDate(date)})`, member.email, `Line${tag}`, "");
  await managerContext.close();

  await signInByPost(page, member.email, member.password);
  await page.goto("/costume");
  const section = page.getByRole("region", { name: title });
  const photo = await noisyJpeg(700);
  expect(photo.length).toBeGreaterThan(400_000);
  await section
    .getByLabel("Your costume photo")
    .setInputFiles({ name: "porch.jpg", mimeType: "image/jpeg", buffer: photo });

  // A slow line: about 200 KB a second up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 40,
    downloadThroughput: -1,
    uploadThroughput: 200 * 1024,
  });
  await section.getByRole("button", { name: "Upload photo" }).click();
  const progress = section.getByTestId("upload-progress");
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(/Uploading… \d+ KB of \d+(\.\d)? (KB|MB) \(\d+%\)/);
  await expect(section.getByRole("button", { name: /Uploading…/ })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath("costume-uploading.png") });
  await expect(section.getByText("Photo uploaded. Staff will review it.")).toBeVisible({ timeout: 20_000 });
  await expect(progress).toHaveCount(0);
  await expect(section.getByTestId("costume-status")).toHaveText("Waiting for review");

  // The research form shares the same progress.
  await page.goto("/research");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${title} (${formatEventDate(date)})` });
  await page.getByLabel("Sources").fill("The surveyor's chain.");
  await page.getByLabel("Research notes").fill("The road bends where the map says it runs straight.");
  await page.getByLabel(/^File/).setInputFiles({ name: "road.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expect(page.getByTestId("upload-progress")).toContainText(/Uploading… \d+ KB of /);
  await expect(page.getByRole("heading", { name: "Research Submitted!" })).toBeVisible({ timeout: 20_000 });
});

test("signing out forgets every form draft kept on the device, whoever's", async ({ page, isMobile }) => {
  test.skip(isMobile, "the same sign-out at both widths");
  const member = await createMember({ first: "Tilda", last: `Drafts${Date.now() % 100_000}` });
  await signInByPost(page, member.email, member.password);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  // Two drafts as the forms keep them (another member's too, on a shared device), and a key of another kind.
  await page.evaluate(() => {
    localStorage.setItem("hopewell:draft:pel:someone:event", JSON.stringify({ savedAt: 1, values: {} }));
    localStorage.setItem("hopewell:draft:letter:someone-else:none", JSON.stringify({ savedAt: 2, values: {} }));
    localStorage.setItem("kept-by-another-site-part", "1");
  });
  // As a browser that ignores the sign-out's Clear-Site-Data (which would empty the storage itself):
  // the page's script forgets the drafts before it goes.
  await page.route("**/logout", async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const headers = { ...response.headers() };
    delete headers["clear-site-data"];
    await route.fulfill({ response, headers });
  });
  await (await mainNav(page, false)).getByRole("button", { name: "Sign Out" }).click();
  await expect(page.locator('form[action="/logout"]')).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual(["kept-by-another-site-part"]);
});
