import { expect, test } from "@playwright/test";
import { E2E_SMTP_PORT } from "../playwright.config";
import { recipients, startSmtpServer } from "../tests/helpers/smtp";
import { expectAccessible } from "./axe";
import { signIn, signUp, solveCaptcha, uniqueEmail } from "./helpers";

// Whole journeys: several pages, CAPTCHA solves and emails each, on a shared 2-core machine.
test.describe.configure({ timeout: 120_000, mode: "default" });
// One real SMTP server on a fixed port (shared with the password-reset journeys, taken in turns).
test.skip(({ isMobile }) => isMobile, "runs once, at desktop width");

const PASSWORD = "Lantern#1877";

test("signing in with an emailed code, with Send again throttled", async ({ page }) => {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    const email = uniqueEmail("ida");
    await signUp(page, { firstName: "Ida", lastName: "Marsh", email, password: PASSWORD });
    await page.getByRole("link", { name: "Email me a sign-in code" }).click();
    await expect(page).toHaveURL(/\/auth\/email-code$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in with a code" })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Email me a code" }).click();
    await expect(page).toHaveURL(/\/auth\/email-code\?email=.*&sent=1/);
    await expect(page.getByRole("heading", { level: 1, name: "Enter your code" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(
      `If ${email} belongs to an account, we have emailed it a 6-digit sign-in code.`,
    );
    await expectAccessible(page);

    // Asking again at once: refused, saying how long to wait.
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Send again" }).click();
    await expect(page.getByRole("alert")).toHaveText(/^You can ask for another code in \d+ seconds\.$/);
    const seconds = Number((await page.getByRole("alert").textContent())!.match(/(\d+) seconds/)![1]);
    expect(seconds).toBeGreaterThan(30);
    expect(seconds).toBeLessThanOrEqual(60);

    const mail = await smtp.waitForMessage((m) => recipients(m).includes(email), 20_000);
    expect(mail.subject).toBe("Your Hopewell sign-in code");
    const code = mail.text!.match(/Your code to sign in to Hopewell is (\d{6})/)![1]!;

    // A wrong code first, then the right one.
    await page.getByLabel("Code", { exact: true }).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("That code is not right. Check the email and try again.")).toBeVisible();
    await page.getByLabel("Code", { exact: true }).fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    // The address was never proven before, but this is the browser that made the account a
    // minute ago: the member keeps the password they chose (docs/decisions/0018-emailed-code-after-sign-up.md).
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "You are signed in" })).toHaveCount(0);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();

    // The code worked once.
    await page.context().clearCookies();
    await page.goto(`/auth/email-code?${new URLSearchParams({ email })}`);
    await page.getByLabel("Code", { exact: true }).fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("That code has already been used. Ask for a new one below.")).toBeVisible();
  } finally {
    await smtp.close();
  }
});

test("the emailed link fills in the code, and signing in with it works without JavaScript", async ({
  page,
  browser,
}) => {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    // The CAPTCHA needs JavaScript, so the account and the request are made with it.
    const email = uniqueEmail("josiah");
    await signUp(page, { firstName: "Josiah", lastName: "Webb", email, password: PASSWORD });
    await page.goto("/auth/email-code?redirectTo=%2Fevents");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Email me a code" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Enter your code" })).toBeVisible();
    const mail = await smtp.waitForMessage((m) => recipients(m).includes(email), 20_000);
    const link = mail.text!.match(/https?:\/\/\S+\/auth\/email-code\?\S+/)![0];
    const code = mail.text!.match(/Your code to sign in to Hopewell is (\d{6})/)![1]!;

    const plain = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.11" },
    });
    try {
      const noscript = await plain.newPage();
      await noscript.goto(link);
      // Opening the link signs nobody in: the code waits in its field for the member to press the button.
      await expect(noscript.getByLabel("Code", { exact: true })).toHaveValue(code);
      await expect(noscript.getByRole("link", { name: "Login / Sign Up" }).first()).toBeAttached();
      await noscript.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(noscript.getByRole("heading", { level: 1, name: "You are signed in" })).toBeVisible();
      await noscript.getByRole("link", { name: "Continue" }).click();
      await expect(noscript).toHaveURL(/\/events$/);
    } finally {
      await plain.close();
    }
  } finally {
    await smtp.close();
  }
});

test("changing the email address through the link sent to the new one", async ({ page }) => {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    const email = uniqueEmail("hattie");
    const newEmail = uniqueEmail("hattie-new");
    await signUp(page, { firstName: "Hattie", lastName: "Rowe", email, password: PASSWORD });
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/profile");
    await page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "Email" }).click();
    await expect(page).toHaveURL(/\/profile\/email$/);
    await expect(page.getByRole("heading", { level: 2, name: "Email address" })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel("New email address", { exact: true }).fill(newEmail);
    await page.getByLabel("Current password", { exact: true }).fill("Wrong#Guess1");
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText("Your current password is not correct")).toBeVisible();
    await page.getByLabel("Current password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `We have emailed a confirmation link to ${newEmail}. Your email address changes when you follow it.`,
    );

    const mail = await smtp.waitForMessage((m) => recipients(m).includes(newEmail), 20_000);
    const link = mail.text!.match(/https?:\/\/\S+\/profile\/email\/confirm\?token=\S+/)![0];
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your new email address" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Confirm new address" }).click();
    await expect(page).toHaveURL(/\/profile\/email\?changed=1$/);
    await expect(page.getByRole("status")).toHaveText(
      `Your email address is now ${newEmail}. A notice went to your old address.`,
    );

    const notice = await smtp.waitForMessage(
      (m) => recipients(m).includes(email) && m.subject === "Your Hopewell email address was changed",
      20_000,
    );
    expect(notice.text).toContain(newEmail);
  } finally {
    await smtp.close();
  }
});
