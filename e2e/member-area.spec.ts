import { APPLICATION_TEXT_QUESTIONS } from "../app/game/application";
import { SUBMISSION_REDIRECT_SECONDS } from "../app/game/rules";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { createMember, mainNav, signInByPost, uniqueEmail } from "./helpers";

// Whole journeys: several pages and CAPTCHA solves each, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });

test("an applicant fills in the application, sees the countdown and then what they sent", async ({
  page,
  isMobile,
  browser,
  baseURL,
  managerState,
}) => {
  // A new member, as a sign-up leaves them (signing up is tested in accounts.spec.ts).
  const email = uniqueEmail("hattie");
  await createMember({ email, password: "Lantern#1877", first: "Hattie", last: "Quill", role: "applicant" });
  await signInByPost(page, email, "Lantern#1877");
  await page.goto("/");
  const nav = await mainNav(page, isMobile);
  await nav.getByText("Forms").click();
  await nav.getByRole("link", { name: "Application" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Player Application" })).toBeVisible();
  await expectAccessible(page);

  // A field left empty says so when the member moves on, and the whole form on submit.
  const discord = page.getByLabel("Your Discord username");
  await discord.focus();
  await discord.blur();
  await expect(page.getByText("This field is required").first()).toBeVisible();
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expect(page.getByRole("alert").first()).toHaveText("Please fill in all required fields");

  await discord.fill("hattie_quill");
  await page.getByLabel(/Cast/).check();
  for (const question of APPLICATION_TEXT_QUESTIONS) {
    const field = page.getByLabel(question.label, { exact: true });
    await expect(field).toHaveAttribute("rows", "3");
    await field.fill(`My honest answer about ${question.key}.`);
  }
  // The page's clock is moved on rather than waited for.
  await page.clock.install();
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expect(page.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
  await expect(page.getByTestId("countdown")).toHaveText(/[123]/);
  await page.clock.runFor(SUBMISSION_REDIRECT_SECONDS * 1000);
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/application");
  await expect(page.getByText("You have already applied")).toBeVisible();
  await expect(page.getByTestId("application-status")).toHaveText("pending");
  await page.goto("/profile?tab=application");
  await expect(page.getByText("My honest answer about referralSource.")).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "Character Creation Unavailable" })).toBeVisible();

  // A manager promotes the new member to player in the Roles tool.
  const managerContext = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    storageState: managerState,
  });
  const managerPage = await managerContext.newPage();
  await managerPage.goto("/tools?tab=roles");
  await managerPage.getByRole("searchbox", { name: "Search members by name or email" }).fill(email);
  await managerPage.getByRole("button", { name: "Search" }).click();
  await expect(managerPage.getByText("1 member matching")).toBeVisible();
  await managerPage.getByLabel("Role of Hattie Quill").selectOption("player");
  let confirmText = "";
  managerPage.once("dialog", (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await managerPage.getByRole("button", { name: "Set role for Hattie Quill" }).click();
  await expect(managerPage.getByText("Role changed to player.")).toBeVisible();
  expect(confirmText).toBe("Are you sure you want to change this user's role to player?");
  await expectAccessible(managerPage);
  await managerContext.close();

  // The change applies on the member's next request.
  await page.reload();
  await expect(page.getByRole("link", { name: "My Character" })).toBeVisible();
  await expect(page.getByTestId("role")).toHaveText("Player");
});

test.describe(() => {
  // Before the fixtures: the phone run would otherwise sign its player in for nothing.
  test.skip(({ isMobile }) => isMobile, "runs at desktop width: nothing here depends on the width");

  test("a player builds a character, edits the backstory and adds an emergency contact", async ({
    page,
    playerState,
  }) => {
    await withSession(page, playerState);

    await page.goto("/character");
    await expect(page.getByLabel("Backstory")).toHaveAttribute("rows", "10");
    await page.getByLabel("Character name").fill("Wyatt the Bold");
    await page.getByLabel("Faction").selectOption("US Survey Corp");
    await page.getByLabel("Job").selectOption("Soldier");
    // Changing faction clears a job the new faction may not take.
    await page.getByLabel("Faction").selectOption("Homesteader");
    await expect(page.getByLabel("Job")).toHaveValue("");
    await expect(page.getByLabel("Job").locator("option", { hasText: "Soldier" })).toHaveCount(0);
    await page.getByLabel("Job").selectOption("Miner");
    await page.getByLabel("Backstory").fill("Lost a brother in the '76 cave-in. Stayed to find out why.");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save Character" }).click();
    await expect(page.getByRole("heading", { name: /Character (Created|Saved)!/ })).toBeVisible();

    await page.getByRole("link", { name: "My Character" }).click();
    await expect(page.getByText("Wyatt the Bold")).toBeVisible();
    await expect(page.getByTestId("events-survived")).toHaveText("0");
    await page.getByRole("link", { name: "Edit backstory" }).click();
    await page.getByLabel("Backstory").fill("Found the brother. He was not alone down there.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Changes saved successfully!")).toBeVisible();
    await expect(page.getByText("Found the brother. He was not alone down there.")).toBeVisible();
    await expect(page.getByText("Changes saved successfully!")).toBeHidden({ timeout: 5_000 });

    await page.getByRole("link", { name: "My Profile" }).click();
    // Wait for the tab to change: until then the character tab's "Edit backstory" is still on the page.
    await expect(page.getByRole("heading", { name: "Emergency contact" })).toBeVisible();
    await page.getByRole("link", { name: /^(Add emergency contact|Edit)$/ }).click();
    await page.getByLabel("Contact name").fill("Martha Tanner");
    await page.getByLabel("Contact phone").fill("555");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText(/Please enter a phone number we can call/)).toBeVisible();
    await page.getByLabel("Contact phone").fill("(860) 555-0142");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Changes saved successfully!")).toBeVisible();
    await expect(page.getByText("+1 860 555 0142")).toBeVisible();
    await expectAccessible(page);

    await page.goto("/events");
    await expect(page.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();
  });
});
