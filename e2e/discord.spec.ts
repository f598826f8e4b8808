import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { DISCORD_NOTICES, DISCORD_UNLINK_MESSAGES } from "../app/features/discord/discord-sign-in";
import { E2E_SERVICES_SERVER } from "../playwright.config";
import { discordIdentity, type DiscordIdentity } from "../tests/helpers/discord-oauth";
import { expectAccessible } from "./axe";
import { createMember, mainNav, signIn } from "./helpers";

/**
 * Sign-in with Discord in Chromium, against a real OAuth server run here in Discord's place
 * (its authorize page asks who to be, as Discord's does). The production build runs with
 * Discord configured: the run's second server (E2E_SERVICES_SERVER in playwright.config.ts; at
 * desktop width only).
 */

/** At Discord's stand-in: be `username` there and allow the site. */
async function authorizeAtDiscord(page: Page, username: string) {
  // Two redirects (the site's start, then the provider's page) on a machine that may be busy.
  await expect(page.getByRole("heading", { name: "Mock Discord" })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Discord username").fill(username);
  await page.getByRole("button", { name: "Authorize" }).click();
}

test.describe("sign-in with Discord", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  const site = E2E_SERVICES_SERVER.url;
  let member: { email: string; password: string };
  // A manager without a second factor (REQUIRE_MANAGER_2FA is off on this server): they suspend the member.
  let manager: { email: string; password: string };
  let linked: DiscordIdentity;
  let suspended: string;

  test.beforeAll(async () => {
    // The server outlives a try of this group (a retry, a repeat): each makes its members and Discord accounts anew.
    const run = crypto.randomBytes(3).toString("hex");
    member = { email: `ruby.drifter-${run}@e2e.test`, password: "Drifter#1877" };
    manager = { email: `opal.marshal-${run}@e2e.test`, password: "Marshal#1877" };
    linked = discordIdentity(`rubyd${run}`);
    suspended = `rubysuspended${run}`;
    await createMember({ ...member, first: "Ruby", last: "Drifter", role: "player" }, E2E_SERVICES_SERVER);
    await createMember({ ...manager, first: "Opal", last: "Marshal", role: "manager" }, E2E_SERVICES_SERVER);
  });

  test("the sign-in page does not move under a press while its scripts start", async ({ page }) => {
    // The page as sent, before its scripts run: they are held back until released below.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/**/*.js", async (route) => {
      await released;
      await route.continue();
    });
    // Module scripts hold back the load events: wait instead for the parsed page, styled, its fonts in.
    await page.goto(`${site}/auth`, { waitUntil: "commit" });
    await page.waitForFunction(
      async () =>
        document.readyState !== "loading" &&
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet) &&
        (await document.fonts.ready) !== undefined,
    );
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);
    await expect(page.locator("altcha-widget")).toHaveCount(0);
    const discord = page.getByRole("button", { name: "Sign in with Discord" });
    // Scrolled to, as a person would on a phone: nothing may scroll the page back either.
    await discord.scrollIntoViewIfNeeded();
    const before = await discord.boundingBox();
    expect(before).not.toBeNull();

    // Then the app's first client-side update, and the CAPTCHA's widget arriving after it.
    release();
    await expect(page.locator("altcha-widget")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("Complete the CAPTCHA to continue.")).toBeVisible();
    expect(await discord.boundingBox()).toEqual(before);

    // A press aimed where the button was at first still reaches Discord.
    await page.mouse.click(before!.x + before!.width / 2, before!.y + before!.height / 2);
    await expect(page.getByRole("heading", { name: "Mock Discord" })).toBeVisible({ timeout: 20_000 });
  });

  test("link Discord from the profile, sign out, sign in with Discord, unlink", async ({ page, isMobile }) => {
    await page.goto(`${site}/auth?redirectTo=%2Fprofile%2Fsign-in-methods`);
    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(`${site}/profile/sign-in-methods`);
    await expect(page.getByRole("heading", { level: 2, name: "Sign-in methods" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "Sign-in methods" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("Set: you can sign in with your email and password.")).toBeVisible();
    await expect(page.getByTestId("discord-status")).toHaveText(/^Not linked/);
    await expectAccessible(page);

    await page.getByRole("button", { name: "Link Discord" }).click();
    await authorizeAtDiscord(page, linked.username);
    await expect(page).toHaveURL(`${site}/profile/sign-in-methods?discord=linked`);
    await expect(page.getByText(DISCORD_NOTICES.linked)).toBeVisible();
    await expect(page.getByTestId("discord-status")).toContainText(`@${linked.username} (${linked.globalName})`);
    await expectAccessible(page);

    const nav = await mainNav(page, isMobile);
    await nav.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);

    await page.goto(`${site}/auth?redirectTo=%2Fprofile`);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Sign in with Discord" }).click();
    await authorizeAtDiscord(page, linked.username);
    await expect(page).toHaveURL(`${site}/profile`);
    await expect(page.getByText(member.email)).toBeVisible();

    await page.goto(`${site}/profile/sign-in-methods`);
    await page.getByRole("button", { name: "Unlink Discord" }).click();
    await expect(page.getByText(DISCORD_UNLINK_MESSAGES.unlinked)).toBeVisible();
    await expect(page.getByTestId("discord-status")).toHaveText(/^Not linked/);
  });

  test("a Discord identity that is not linked is told how to link it", async ({ page }) => {
    await page.goto(`${site}/auth`);
    await page.getByRole("button", { name: "Sign in with Discord" }).click();
    await authorizeAtDiscord(page, "stranger");
    await expect(page).toHaveURL(`${site}/auth?discord=not-linked`);
    await expect(page.getByText(DISCORD_NOTICES["not-linked"])).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  });

  test("a suspended member is refused by Discord, and signs in with it again once restored", async ({
    page,
    browser,
  }) => {
    await page.goto(`${site}/auth?redirectTo=%2Fprofile%2Fsign-in-methods`);
    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(`${site}/profile/sign-in-methods`);
    await page.getByRole("button", { name: "Link Discord" }).click();
    await authorizeAtDiscord(page, suspended);
    await expect(page.getByText(DISCORD_NOTICES.linked)).toBeVisible();

    // The manager suspends the account from its page: the member's session ends at once.
    const context = await browser.newContext();
    const managerPage = await context.newPage();
    managerPage.on("dialog", (dialog) => void dialog.accept());
    await managerPage.goto(`${site}/auth`);
    await signIn(managerPage, manager.email, manager.password);
    await expect(managerPage).toHaveURL(`${site}/`);
    await managerPage.goto(`${site}/tools?tab=roles&q=${encodeURIComponent(member.email)}`);
    await managerPage.getByRole("link", { name: "Ruby Drifter" }).click();
    await expect(managerPage.getByRole("heading", { level: 1, name: "Ruby Drifter" })).toBeVisible();
    await managerPage.getByRole("button", { name: "Suspend the account" }).click();
    // What stays on the page (the success notice fades after three seconds, which a slow machine can outlast).
    await expect(
      managerPage.getByRole("region", { name: "Account" }).getByText("Suspended", { exact: true }),
    ).toBeVisible({ timeout: 15_000 });
    await expect(
      managerPage.getByRole("region", { name: "Signed-in sessions" }).getByText("Not signed in anywhere."),
    ).toBeVisible();

    await page.goto(`${site}/profile`);
    await expect(page).toHaveURL(`${site}/auth?redirectTo=%2Fprofile`);
    await page.getByRole("button", { name: "Sign in with Discord" }).click();
    await authorizeAtDiscord(page, suspended);
    await expect(page).toHaveURL(/\/auth\?discord=suspended/);
    await expect(page.getByText(DISCORD_NOTICES.suspended)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
    await expectAccessible(page);

    await managerPage.getByRole("button", { name: "Restore the account" }).click();
    await expect(managerPage.getByRole("region", { name: "Account" }).getByText("Active", { exact: true })).toBeVisible(
      { timeout: 15_000 },
    );
    await page.goto(`${site}/auth`);
    await page.getByRole("button", { name: "Sign in with Discord" }).click();
    await authorizeAtDiscord(page, suspended);
    await expect(page).toHaveURL(`${site}/`);
    await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeAttached();
    await context.close();
  });

  test("signing in with Discord works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site}/auth`);
    await page.getByRole("button", { name: "Sign in with Discord" }).click();
    await authorizeAtDiscord(page, "nojs");
    await expect(page).toHaveURL(`${site}/auth?discord=not-linked`);
    await expect(page.getByText(DISCORD_NOTICES["not-linked"])).toBeVisible();
    await context.close();
  });
});
