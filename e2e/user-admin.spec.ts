import type { Browser, Page, TestInfo } from "@playwright/test";
import { E2E_SMTP_PORT } from "../playwright.config";
import { recipients, startSmtpServer } from "../tests/helpers/smtp";
import { totpNow } from "../tests/helpers/totp";
import { expectAccessible } from "./axe";
import { expect, test, type SignedInState } from "./fixtures";
import {
  createMember,
  enrolAuthenticatorApp,
  mainNav,
  screenshots,
  signIn,
  signInByPost,
  uniqueEmail,
} from "./helpers";

// Whole journeys across two browsers, with CAPTCHA solves, on a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const PASSWORD = "Lantern#1877";
const SUSPENDED = "This account is suspended. Contact the club's managers.";
/** The danger style's colour (--color-blood), for destructive actions only. */
const BLOOD = "rgb(224, 96, 90)";

/** The page at 1280 and 390 pixels wide, for a person to look at: test-results/…/user-admin-NAME-WIDTH.png (desktop run only). */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  if (testInfo.project.name !== "desktop") return;
  await screenshots(page, [1280, 390], (width) => testInfo.outputPath(`user-admin-${name}-${width}.png`));
}

/** A manager signed in (with their authenticator app) in a browser of their own, accepting every confirmation dialog. */
async function managerPage(browser: Browser, baseURL: string | undefined, page: Page, managerState: SignedInState) {
  const context = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.30" },
    storageState: managerState,
  });
  const manager = await context.newPage();
  manager.on("dialog", (dialog) => void dialog.accept());
  return manager;
}

/** Opens the member's page from the Roles tab's search, as a manager finds them. */
async function openMember(manager: Page, email: string, name: string) {
  await manager.goto(`/tools?tab=roles&q=${encodeURIComponent(email)}`);
  await manager.getByRole("link", { name }).click();
  await expect(manager.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("a manager invites a member, whose emailed link sets their password, and they sign in", async ({
  page,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one real SMTP server on a fixed port: runs once, at desktop width");
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    const manager = await managerPage(browser, baseURL, page, managerState);
    await manager.goto("/tools?tab=roles");
    await manager.getByRole("link", { name: "Invite a member" }).click();
    await expect(manager.getByRole("heading", { level: 1, name: "Invite a member" })).toBeVisible();
    await expectAccessible(manager);
    await shots(manager, testInfo, "invite");
    const email = uniqueEmail("invited");
    await manager.getByLabel("First name").fill("Ada");
    await manager.getByLabel("Last name").fill("Invite");
    await manager.getByLabel("Email").fill(email);
    await expect(manager.getByLabel("Role")).toHaveValue("applicant");
    await manager.getByRole("button", { name: "Send invitation" }).click();
    await expect(manager.getByRole("heading", { level: 1, name: "Ada Invite" })).toBeVisible();
    await expect(manager.getByText("Invitation sent.")).toBeVisible();
    await expect(manager.getByText("Not set yet")).toBeVisible();

    const mail = await smtp.waitForMessage((m) => recipients(m).includes(email), 20_000);
    expect(mail.subject).toBe("You are invited to the Hopewell members' site");
    const link = mail.text!.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];
    await page.goto(link);
    // An invited member never had a password: the page welcomes them.
    await expect(page.getByRole("heading", { name: "Welcome to Hopewell: choose your password" })).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("Silver$Seam9");
    await page.getByLabel("Confirm password", { exact: true }).fill("Silver$Seam9");
    await page.getByRole("button", { name: "Set My Password" }).click();
    await expect(page.getByRole("status")).toHaveText("Your account is ready. Taking you to sign in...");
    await page.goto("/auth");
    await signIn(page, email, "Silver$Seam9");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeAttached();

    // The manager's page now says the password is set, and the audit log names the invitation.
    await manager.reload();
    await expect(manager.getByText("Set", { exact: true })).toBeVisible();
    await manager.goto("/tools?tab=audit");
    await expect(manager.getByText("Ada Boss invited Ada Invite").first()).toBeVisible();
    await manager.context().close();
  } finally {
    await smtp.close();
  }
});

test("a manager suspends a member (signed out, sign-in refused with the message), restores them, removes their authenticator app and ends their sessions", async ({
  page,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  const email = uniqueEmail(`suspend-${testInfo.project.name}`);
  const last = testInfo.project.name === "desktop" ? "Desk" : "Phone";
  await createMember({ email, password: PASSWORD, first: "Hattie", last, role: "applicant" });
  await signInByPost(page, email, PASSWORD);

  const manager = await managerPage(browser, baseURL, page, managerState);
  await openMember(manager, email, `Hattie ${last}`);
  await expect(manager.getByText("Signed in on 1 device.")).toBeVisible();
  await expectAccessible(manager);
  await shots(manager, testInfo, "member");

  // What each confirmation asks, in the browser's dialog (accepted by managerPage).
  const asked: string[] = [];
  manager.on("dialog", (dialog) => asked.push(dialog.message()));

  // Suspend: the member's session ends at once, and signing in again is refused with the message.
  // Its button has the danger style (blood red), and it asks first, naming whom and what follows.
  await manager.getByLabel("Reason (for managers only)").fill("Testing the suspension");
  const suspend = manager.getByRole("button", { name: "Suspend the account" });
  await expect(suspend).toHaveCSS("color", BLOOD);
  await expect(suspend).toHaveCSS("border-top-color", BLOOD);
  await expect(manager.getByRole("button", { name: "Save details" })).not.toHaveCSS("color", BLOOD);
  await suspend.click();
  await expect(manager.getByText("Account suspended. 1 session ended.")).toBeVisible();
  expect(asked.at(-1)).toBe(
    `Suspend Hattie ${last}? They are signed out everywhere at once and cannot sign in by any way until the account is restored.`,
  );
  await expect(manager.getByText("Suspended: Testing the suspension")).toBeVisible();
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("alert")).toContainText(SUSPENDED);
  await expect(page).toHaveURL(/\/auth/);

  // Restore: the member signs in again. Nothing is taken away: not the danger style.
  await expect(manager.getByRole("button", { name: "Restore the account" })).not.toHaveCSS("color", BLOOD);
  await manager.getByRole("button", { name: "Restore the account" }).click();
  await expect(manager.getByText("Account restored. The member can sign in again.")).toBeVisible();
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);

  // The member sets up an authenticator app, then loses their phone: the manager removes it.
  await page.goto("/profile/two-factor");
  await enrolAuthenticatorApp(page, PASSWORD);
  await manager.reload();
  await expect(manager.getByText("On", { exact: true })).toBeVisible();
  await manager.getByRole("button", { name: "Remove the authenticator app" }).click();
  await expect(manager.getByText("Authenticator app removed.")).toBeVisible();
  await expect(manager.getByText("Off", { exact: true })).toBeVisible();

  // End every session: the member's browser, signed in now, is signed out on its next request.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(manager.getByRole("button", { name: "End all sessions" })).toHaveCSS("color", BLOOD);
  await manager.getByRole("button", { name: "End all sessions" }).click();
  await expect(manager.getByText(/\d+ sessions? ended\./)).toBeVisible();
  expect(asked.at(-1)).toMatch(new RegExp(`^Sign Hattie ${last} out on every device \\(\\d+ sessions?\\)\\?$`));
  await expect(manager.getByText("Not signed in anywhere.")).toBeVisible();

  // Deleting the account is a page of its own that names the member, with the danger style too (not pressed here).
  await manager.getByRole("link", { name: "Delete account…" }).click();
  await expect(manager.getByRole("heading", { level: 2, name: `Delete the account of Hattie ${last}?` })).toBeVisible();
  await expect(manager.getByLabel(`I confirm that the account of Hattie ${last}`)).not.toBeChecked();
  await expect(manager.getByRole("button", { name: "Delete this account" })).toHaveCSS("color", BLOOD);
  await expectAccessible(manager);
  await shots(manager, testInfo, "delete");
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);
  // With the factor gone, the password alone signs in.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/profile$/);

  await manager.goto("/tools?tab=audit");
  for (const entry of [
    `suspended Hattie ${last}`,
    `restored Hattie ${last}`,
    `removed a second factor of Hattie ${last}`,
    `ended the signed-in sessions of Hattie ${last}`,
  ]) {
    await expect(manager.getByText(entry).first()).toBeVisible();
  }
  await manager.context().close();
});

test("a member suspended between the password and the second step is refused at the second step", async ({
  page,
  browser,
  baseURL,
  isMobile,
  managerState,
}, testInfo) => {
  const email = uniqueEmail(`suspend-step-${testInfo.project.name}`);
  const last = testInfo.project.name === "desktop" ? "Stepdesk" : "Stepphone";
  const slow = { timeout: 30_000 };
  await createMember({ email, password: PASSWORD, first: "Cora", last });
  await signInByPost(page, email, PASSWORD);
  await page.goto("/profile/two-factor");
  const uri = await enrolAuthenticatorApp(page, PASSWORD, slow);
  const nav = await mainNav(page, isMobile);
  await nav.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0, slow);

  // The password is right: the sign-in waits on the second step.
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/auth\/two-factor/, slow);

  // Meanwhile a manager suspends the account.
  const manager = await managerPage(browser, baseURL, page, managerState);
  await openMember(manager, email, `Cora ${last}`);
  await manager.getByRole("button", { name: "Suspend the account" }).click();
  await expect(manager.getByText(/Account suspended\./)).toBeVisible(slow);

  // The right code no longer signs in: the message, and a way back to the start.
  await page.getByLabel("Authenticator code").fill(totpNow(uri));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toContainText(SUSPENDED, slow);
  await expect(page.getByRole("link", { name: "Sign in again" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile/);
  await manager.context().close();
});

test("without JavaScript a change asks for confirmation on the page first", async ({
  browser,
  baseURL,
  page,
  managerState,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one width is enough for the plain-form path");
  const email = uniqueEmail("plain");
  await createMember({ email, password: PASSWORD, first: "Ezra", last: "Plain", role: "applicant" });
  // Signing in needs the CAPTCHA (JavaScript); the cookies then go to a browser without it.
  const manager = await managerPage(browser, baseURL, page, managerState);
  const state = await manager.context().storageState();
  const plain = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    storageState: state,
    extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.30" },
  });
  const noscript = await plain.newPage();
  await openMember(noscript, email, "Ezra Plain");
  await noscript.getByRole("button", { name: "Make a one-time password link" }).click();
  await expect(noscript.getByRole("heading", { name: "Please confirm" })).toBeVisible();
  await shots(noscript, testInfo, "confirm");
  await noscript.getByRole("button", { name: "Yes, make the link" }).click();
  await expect(noscript.getByRole("heading", { name: "One-time password link" })).toBeVisible();
  await expect(noscript.getByLabel("Link for Ezra Plain")).toHaveValue(/\/reset-password\?token=/);
  await shots(noscript, testInfo, "link");
  await plain.close();
  await manager.context().close();
});
