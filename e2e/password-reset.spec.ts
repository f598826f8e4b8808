import { expect, test } from "@playwright/test";

// Whole journeys: several pages and CAPTCHA solves each, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000, mode: "default" });
import { RESET_PASSWORD_REDIRECT_MS } from "../app/game/rules";
import { E2E_SMTP_PORT } from "../playwright.config";
import { startSmtpServer, recipients } from "../tests/helpers/smtp";
import { expectAccessible } from "./axe";
import { signIn, signUp, solveCaptcha, uniqueEmail } from "./helpers";

// One real SMTP server on a fixed port, so one browser at a time runs this.
test.skip(({ isMobile }) => isMobile, "runs once, at desktop width");

test("a forgotten password is reset through the emailed link", async ({ page }) => {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    const email = uniqueEmail("nell");
    await signUp(page, { firstName: "Nell", lastName: "Voss", email, password: "Lantern#1877" });

    await page.getByRole("link", { name: "Forgot Password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("link", { name: "Login here" })).toHaveAttribute("href", "/login");
    await expect(page.getByRole("button", { name: "Back" })).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("status")).toHaveText("Password reset email sent! Check your inbox.");
    await expectAccessible(page);

    const mail = await smtp.waitForMessage((m) => recipients(m).includes(email), 20_000);
    const link = mail.text!.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a New Password" })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("Silver$Seam9");
    await page.getByLabel("Confirm new password", { exact: true }).fill("Silver$Seam8");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
    await page.getByLabel("Confirm new password", { exact: true }).fill("Silver$Seam9");
    // The page's clock is moved on rather than waited for.
    await page.clock.install();
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("status")).toHaveText("Password updated! Redirecting to login...");
    // docs/product.md#password-reset: to / after 2 seconds (the reset ended every session, so signed out).
    await expect(page).toHaveURL(/\/reset-password\?token=/);
    await page.clock.runFor(RESET_PASSWORD_REDIRECT_MS);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Login / Sign Up" }).first()).toBeAttached();

    await page.goto("/auth");
    await signIn(page, email, "Silver$Seam9");
    await expect(page).toHaveURL(/\/$/);

    // The link works once.
    await page.goto(link);
    await expect(page.getByRole("alert")).toHaveText(
      "This reset link is invalid, has expired or has already been used.",
    );
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
  } finally {
    await smtp.close();
  }
});

test("without JavaScript the reset page also goes to / after 2 seconds", async ({ page, browser }) => {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    // The CAPTCHA needs JavaScript, so the account and the request are made with it.
    const email = uniqueEmail("noscript");
    await signUp(page, { firstName: "Abel", lastName: "Plain", email, password: "Lantern#1877" });
    await page.goto("/forgot-password");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("status")).toHaveText("Password reset email sent! Check your inbox.");
    const mail = await smtp.waitForMessage((m) => recipients(m).includes(email), 20_000);
    const link = mail.text!.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];

    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const noscript = await plain.newPage();
      await noscript.goto(link);
      await noscript.getByLabel("New password", { exact: true }).fill("Silver$Seam9");
      await noscript.getByLabel("Confirm new password", { exact: true }).fill("Silver$Seam9");
      await noscript.getByRole("button", { name: "Set New Password" }).click();
      await expect(noscript.getByRole("status")).toHaveText("Password updated! Redirecting to login...");
      await expect(noscript).toHaveURL(/\/$/, { timeout: 6_000 });
    } finally {
      await plain.close();
    }
  } finally {
    await smtp.close();
  }
});
