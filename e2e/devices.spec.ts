import { expect, test } from "@playwright/test";
import { expectAccessible } from "./axe";
import { screenshots, signIn, signUp, uniqueEmail } from "./helpers";

// Two browsers and two CAPTCHA solves, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });

const OTHER_BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

test("a member sees where they are signed in and signs out another browser, then everywhere", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail("devices");
  const password = "Lantern#1877";
  await signUp(page, { firstName: "Clara", lastName: "Vance", email, password });
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);

  // A second browser of the same member, somewhere else.
  const other = await browser.newContext({
    baseURL,
    userAgent: OTHER_BROWSER,
    extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.77" },
  });
  const otherPage = await other.newPage();
  await otherPage.goto("/auth");
  await signIn(otherPage, email, password);
  await expect(otherPage).toHaveURL(/\/$/);

  await page.goto("/profile");
  await page
    .getByRole("navigation", { name: "Profile sections" })
    .getByRole("link", { name: "Signed-in devices" })
    .click();
  await expect(page).toHaveURL(/\/profile\/devices$/);
  await expect(page.getByRole("heading", { level: 2, name: "Signed-in devices" })).toBeVisible();
  const devices = page.getByTestId("device");
  await expect(devices).toHaveCount(2);
  await expect(devices.first()).toContainText("This device");
  await expect(devices.nth(1)).toContainText("Firefox 133 on Windows 10");
  await expect(devices.nth(1)).toContainText("198.51.100.77");
  await expect(devices.nth(1)).not.toContainText("This device");
  await expectAccessible(page);
  await screenshots(page, [1280, 412], (px) => `/tmp/devices-${px}.png`);

  // Signing out the other browser ends its session: its next page asks it to sign in.
  await devices
    .nth(1)
    .getByRole("button", { name: /Sign out/ })
    .click();
  await expect(page.getByRole("status")).toContainText("That device is signed out.");
  await expect(devices).toHaveCount(1);
  await otherPage.goto("/profile");
  await expect(otherPage).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);

  // Sign in there again, then end every session from here.
  await signIn(otherPage, email, password);
  await expect(otherPage).toHaveURL(/\/profile$/);
  await page.reload();
  await expect(devices).toHaveCount(2);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await otherPage.goto("/profile");
  await expect(otherPage).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);
  await page.goto("/profile/devices");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile%2Fdevices/);
  await other.close();
});
