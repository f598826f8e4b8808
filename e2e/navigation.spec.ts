import { expect, test } from "@playwright/test";
import { ANY_WIDTH } from "../playwright.config";

test("signed out, the navigation offers Rulebook, Location and Login / Sign Up", async ({ page, isMobile }) => {
  const openMenu = async () => {
    if (!isMobile) return;
    const menu = page.locator("summary", { hasText: "Menu" });
    await expect(menu).toBeVisible();
    await menu.click();
  };
  await page.goto("/");
  await openMenu();
  const nav = page.getByRole("navigation", { name: "Main" }).locator("visible=true");
  await expect(nav.getByRole("link")).toHaveText(["Rulebook", "Location", "Login / Sign Up"]);
  await nav.getByRole("link", { name: "Rulebook" }).click();
  await expect(page).toHaveURL(/\/rulebook$/);
  // The phone menu closes after navigating; open it again to see the current page marked.
  await openMenu();
  await expect(nav.getByRole("link", { name: "Rulebook" })).toHaveAttribute("aria-current", "page");
});

test("where the app's scripts run, the navigation's links change page without reloading it", async ({
  page,
  isMobile,
}) => {
  await page.goto("/forgot-password");
  await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
  if (isMobile) await page.locator("summary", { hasText: "Menu" }).click();
  const nav = page.getByRole("navigation", { name: "Main" }).locator("visible=true");
  await nav.getByRole("link", { name: "Location" }).click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  if (isMobile) await page.locator("summary", { hasText: "Menu" }).click();
  await expect(nav.getByRole("link", { name: "Location" })).toHaveAttribute("aria-current", "page");
});

test("where the app's scripts run, a link in a page changes page without reloading it, and a new-tab click is the browser's", async ({
  page,
  context,
  isMobile,
}) => {
  test.skip(isMobile, "runs once, at desktop width");
  await page.goto("/reset-password?token=no-such-token");
  const link = page.getByRole("link", { name: "Ask for a new link" });
  await expect(link).toHaveAttribute("href", "/forgot-password");
  // The scripts have started once the header's menu answers; mark this document to tell a reload apart.
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
  // A click with Control (or the middle button) is the browser's: a new tab, this page unchanged.
  const [opened] = await Promise.all([context.waitForEvent("page"), link.click({ modifiers: ["ControlOrMeta"] })]);
  await opened.close();
  await expect(page).toHaveURL(/\/reset-password\?token=no-such-token$/);
  await link.click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
});

test("the phone menu opens and closes from the keyboard", async ({ page, isMobile }) => {
  test.skip(!isMobile, "the menu button is shown on narrow screens");
  // On the shared public pages the menu is a plain <details>: Enter opens and closes it.
  await page.goto("/");
  let menu = page.locator("summary", { hasText: "Menu" });
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu.locator("xpath=..")).toHaveAttribute("open", "");
  await page.keyboard.press("Enter");
  await expect(menu.locator("xpath=..")).not.toHaveAttribute("open", "");

  // Where the app's scripts run, Escape closes it too and leaves the focus on the button.
  await page.goto("/forgot-password");
  menu = page.locator("summary", { hasText: "Menu" });
  await menu.focus();
  await page.keyboard.press("Enter");
  const details = menu.locator("xpath=..");
  await expect(details).toHaveAttribute("open", "");
  // A menu opened before the scripts started stays open once they run. Escape is theirs: pressed
  // before they start it does nothing, so it is pressed until they answer it.
  await expect(async () => {
    await page.keyboard.press("Escape");
    await expect(details).not.toHaveAttribute("open", "", { timeout: 500 });
  }).toPass();
  await expect(menu).toBeFocused();
});

test("a keyboard user can skip straight to the content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the FAQ and the phone menu still open", async ({ page, isMobile }) => {
    await page.goto("/");
    const summary = page.locator("summary", { hasText: "What should I wear?" });
    await summary.click();
    await expect(summary.locator("xpath=..")).toContainText("no obviously modern clothing");
    if (isMobile) {
      await page.locator("summary", { hasText: "Menu" }).click();
      await page
        .getByRole("navigation", { name: "Main" })
        .locator("visible=true")
        .getByRole("link", { name: "Location" })
        .click();
      await expect(page).toHaveURL(/\/locations$/);
    }
  });
});

// The phone's menu at a phone's width, in the desktop run: nothing else here depends on the device.
test("a menu opened before the page's scripts start stays open when they do", { tag: ANY_WIDTH }, async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  // The site's scripts are held back until the menu is open, as on a slow phone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/forgot-password", { waitUntil: "commit" });
  const menu = page.locator("summary", { hasText: "Menu" });
  await menu.click();
  const details = menu.locator("xpath=..");
  await expect(details).toHaveAttribute("open", "");
  release();
  // React has taken the page over (its own property on the elements it drew), and its effects
  // have run (they are flushed before the next frames are drawn).
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("summary")!).some((key) => key.startsWith("__reactFiber")),
  );
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
  await expect(details).toHaveAttribute("open", "");
  // And the scripts' own ways to close it work.
  await page.keyboard.press("Escape");
  await expect(details).not.toHaveAttribute("open", "");
});
