import { expect, test, withSession } from "./fixtures";

// Whole journeys: several pages and CAPTCHA solves each, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });
import { expectAccessible } from "./axe";

/** Every page a manager can open, checked for serious accessibility problems at both widths. */
const PAGES = [
  "/", "/rulebook", "/locations", "/events", "/events/manage", "/profile", "/profile/devices", "/profile/password", "/profile/two-factor", "/profile/passkeys", "/profile/email", "/profile/data", "/account-deleted",
  "/application", "/character", "/pels", "/merchant-orders", "/research", "/costume",
  "/letters", "/letters?tab=box", "/tools", "/tools?tab=cast", "/tools?tab=applications", "/tools?tab=roles", "/tools/members/invite", "/attendance", "/attendance-tool", "/emergency-contacts", "/tools/event-day", "/outbox",
  "/view-pels", "/view-merchant-orders", "/view-research", "/view-letters", "/view-costumes", "/forgot-password", "/reset-password?token=expired", "/no-such-page",
];

test("every page is accessible to a signed-in manager", async ({ page, managerState }) => {
  // Over forty pages, each checked with axe: the longest journey of the suite.
  test.setTimeout(240_000);
  await withSession(page, managerState);
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    await expectAccessible(page);
  }
  await page.goto("/tools");
  await expect(page.getByRole("heading", { level: 2, name: "Player List" })).toBeVisible();
  await expect(page.getByText(/^\d+ players?$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Attendance Tool" })).toBeVisible();
});
