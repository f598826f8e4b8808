import fs from "node:fs/promises";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { totpNow } from "../tests/helpers/totp";
import { expectAccessible } from "./axe";
import {
  createMember,
  enrolAuthenticatorApp,
  mainNav,
  screenshots,
  signIn,
  signUp,
  uniqueEmail,
  unusedTotp,
} from "./helpers";

test.describe.configure({ timeout: 120_000 });

const PASSWORD = "Lantern#1877";

async function signOut(page: Page, isMobile: boolean) {
  const nav = await mainNav(page, isMobile);
  await nav.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
}

/**
 * The page as it is now, at 1280 and 390 pixels wide (a phone), for a person to look at:
 * test-results/…/two-factor-NAME-WIDTH.png. Taken in the desktop run only.
 */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  if (testInfo.project.name !== "desktop") return;
  await screenshots(page, [1280, 390], (width) => testInfo.outputPath(`two-factor-${name}-${width}.png`));
}

/** Password first; the sign-in then waits on the second step. */
async function passwordStep(page: Page, email: string) {
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/auth\/two-factor/);
  await expect(page.getByRole("heading", { name: "Two-Step Sign In" })).toBeVisible();
}

/** Sets up an authenticator app on /profile/two-factor: returns its otpauth:// address and the backup codes shown. */
async function enrol(page: Page, testInfo: TestInfo) {
  await page.goto("/profile/two-factor");
  await expect(page.getByTestId("two-factor-status")).toContainText("Off");
  await shots(page, testInfo, "profile-off");
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  await shots(page, testInfo, "profile-enrol");
  await expect(page.getByTestId("totp-secret")).toHaveText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const uri = (await page.locator('input[name="uri"]').getAttribute("value"))!;
  await page.getByLabel("Code from the app").fill(totpNow(uri));
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible();
  const codes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
  expect(codes).toHaveLength(10);
  return { uri, codes };
}

test("enrol an authenticator app, sign in with a code and with a backup code, refuse it reused, remove the factor", async ({
  page,
  isMobile,
}, testInfo) => {
  const email = uniqueEmail(`two-factor-${testInfo.project.name}`);
  await signUp(page, { firstName: "Tess", lastName: "Holloway", email, password: PASSWORD });
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);

  const { uri, codes } = await enrol(page, testInfo);
  await shots(page, testInfo, "profile-codes");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download as a text file" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("hopewell-backup-codes.txt");
  const text = await fs.readFile((await file.path())!, "utf8");
  for (const code of codes) expect(text).toContain(code);
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByTestId("two-factor-status")).toContainText("On");
  await expect(page.getByTestId("two-factor-status")).toContainText("10 of 10 backup codes left");
  await expectAccessible(page);
  await shots(page, testInfo, "profile-on");

  // Sign out, then in with the app's code.
  await signOut(page, isMobile);
  await passwordStep(page, email);
  await expectAccessible(page);
  await shots(page, testInfo, "sign-in-code");
  await page.getByLabel("Authenticator code").fill(await unusedTotp(uri));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);

  // With a backup code.
  await signOut(page, isMobile);
  await passwordStep(page, email);
  await page.getByRole("link", { name: "Use a backup code" }).click();
  await page.getByLabel("Backup code").fill(codes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);

  // The same backup code again is refused.
  await signOut(page, isMobile);
  await passwordStep(page, email);
  await page.getByRole("link", { name: "Use a backup code" }).click();
  await page.getByLabel("Backup code").fill(codes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That backup code is not right, or it has already been used.")).toBeVisible();
  await shots(page, testInfo, "sign-in-backup-refused");
  await page.getByRole("link", { name: "Use my authenticator app" }).click();
  await page.getByLabel("Authenticator code").fill(await unusedTotp(uri));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);

  // Remove the factor after the password.
  await page.goto("/profile/two-factor");
  await expect(page.getByTestId("two-factor-status")).toContainText("9 of 10 backup codes left");
  const removal = page.getByRole("form", { name: "Turn two-factor authentication off" });
  await removal.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await removal.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByText("Two-factor authentication is off")).toBeVisible();
  await expect(page.getByTestId("two-factor-status")).toContainText("Off");
  await signOut(page, isMobile);
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);
});

test("a manager without a second factor is refused the tools until they set one up", async ({ page }, testInfo) => {
  const email = uniqueEmail(`two-factor-manager-${testInfo.project.name}`);
  await createMember({ email, password: PASSWORD, first: "Hattie", last: "Crane", role: "manager" });
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/tools");
  await expect(page).toHaveURL(/\/profile\/two-factor\?required=manager&redirectTo=%2Ftools$/);
  await expect(page.getByRole("alert")).toContainText(
    "Managers must sign in with a second factor to use the staff tools",
  );
  await shots(page, testInfo, "profile-required");
  await page.goto("/emergency-contacts");
  await expect(page).toHaveURL(/\/profile\/two-factor\?required=manager/);

  await enrolAuthenticatorApp(page, PASSWORD);
  // Back to the page that sent them here, now open.
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page).toHaveURL(/\/emergency-contacts$/);
  await expect(page.getByRole("heading", { level: 1, name: "Emergency Contacts" })).toBeVisible();
  await page.goto("/tools");
  await expect(page).toHaveURL(/\/tools$/);
  await expect(page.getByRole("heading", { level: 2, name: "Player List" })).toBeVisible();
});
