import { expect, test, withSession } from "./fixtures";

// Whole journeys: several pages and CAPTCHA solves each, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });
import { expectAccessible } from "./axe";

/** Every page a manager can open, checked for serious accessibility problems at both widths. */
const PAGES = [
  "/",
  "/rulebook",
  "/locations",
  "/events",
  "/events/manage",
  "/profile",
  "/profile/devices",
  "/profile/password",
  "/profile/two-factor",
  "/profile/passkeys",
  "/profile/email",
  "/profile/data",
  "/profile/record",
  "/notices",
  "/account-deleted",
  "/application",
  "/character",
  "/pels",
  "/merchant-orders",
  "/research",
  "/costume",
  "/letters",
  "/letters?tab=box",
  "/tools",
  "/tools?tab=cast",
  "/tools?tab=applications",
  "/tools?tab=roles",
  "/tools/members/invite",
  "/tools/club",
  "/tools/club/faq",
  "/tools/club/merchant",
  "/tools/club/cabins",
  "/tools/club/factions",
  "/tools/club/pel-questions",
  "/tools/club/application-questions",
  "/tools/club/locations",
  "/tools/club/rulebook",
  "/tools/club/welcome",
  "/tools/messages",
  "/tools/messages/new",
  "/attendance",
  "/attendance-tool",
  "/emergency-contacts",
  "/tools/event-day",
  "/outbox",
  "/view-pels",
  "/view-merchant-orders",
  "/view-research",
  "/view-letters",
  "/view-costumes",
  "/forgot-password",
  "/reset-password?token=expired",
  "/no-such-page",
];

/**
 * The walk in parts, each a test of its own: with fully parallel tests the parts run side by side
 * in the workers rather than one worker walking forty pages at the end of the run.
 */
const PARTS = 4;

for (let part = 0; part < PARTS; part++) {
  const paths = PAGES.filter((_, index) => index % PARTS === part);
  test(`every page is accessible to a signed-in manager (part ${part + 1} of ${PARTS})`, async ({
    page,
    managerState,
  }) => {
    // Ten pages, each checked with axe, on a shared 2-core machine.
    test.setTimeout(150_000);
    await withSession(page, managerState);
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator("h1")).toBeVisible();
      await expectAccessible(page);
    }
  });
}

test("the tools page opens on the player list for a manager", async ({ page, managerState }) => {
  await withSession(page, managerState);
  await page.goto("/tools");
  await expect(page.getByRole("heading", { level: 2, name: "Player List" })).toBeVisible();
  await expect(page.getByText(/^\d+ players?$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Attendance Tool" })).toBeVisible();
});
