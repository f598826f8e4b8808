import { expect, test, type Page } from "@playwright/test";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { E2E_SERVICES_SERVER } from "../playwright.config";
import { signUp, solveCaptcha, uniqueEmail } from "./helpers";

// A solved CAPTCHA is accepted once. When the server refuses a form, the widget must start
// over with a fresh challenge, keeping what was typed, so the next try can succeed.
test.describe.configure({ timeout: 120_000 });

const PASSWORD = "Lantern#1877";
const CAPTCHA_MESSAGE = "Please complete the CAPTCHA";

/** After a refusal: the widget is back to its box, and the button waits for a new solve. */
async function expectFreshCaptcha(page: Page, button: string) {
  await expect(page.locator("altcha-widget .altcha")).not.toHaveAttribute("data-state", "verified");
  await expect(page.getByRole("button", { name: button, exact: true })).toBeDisabled();
  await expect(page.getByText("Complete the CAPTCHA to continue.")).toBeVisible();
}

test("a wrong password, then the right one, signs in without reloading the page", async ({ page }) => {
  const email = uniqueEmail("retry");
  await signUp(page, { firstName: "Ruth", lastName: "Tries", email, password: PASSWORD });

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Wrong#12345");
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  await expectFreshCaptcha(page, "Sign In");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Apply Now" }).first()).toHaveAttribute("href", "/application");
});

test("a refused sign-up can be sent again with a new challenge", async ({ page }) => {
  const taken = uniqueEmail("taken");
  await signUp(page, { firstName: "Tom", lastName: "First", email: taken, password: PASSWORD });

  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Tess");
  await page.getByLabel("Last name").fill("Second");
  await page.getByLabel("Email", { exact: true }).fill(taken);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toContainText("An account with this email already exists.");
  await expectFreshCaptcha(page, "Create Account");
  await expect(page.getByLabel("First name")).toHaveValue("Tess");

  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("tess"));
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("status")).toHaveText("Account created successfully! You can now sign in.");
});

/**
 * Two client addresses of a test's try's own (the servers trust the proxy header in these tests),
 * since the limits and the throttle are per address: the first is limited, the second stands in
 * for the time passing. They come from two documentation ranges, so that a retry's first address
 * is never an earlier try's second.
 */
function twoAddresses(): [string, string] {
  const host = Math.floor(Math.random() * 254) + 1;
  return [`198.51.100.${host}`, `203.0.113.${host}`];
}

/** Solves one of the server's challenges outside the browser, as the widget would. */
async function solvedOutsideBrowser(baseURL: string, address: string): Promise<string> {
  const challenge = (await (
    await fetch(`${baseURL}/captcha/challenge`, { headers: { "X-Forwarded-For": address } })
  ).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

test("a reset request refused by the address limit can be sent again with a new challenge", async ({
  page,
  baseURL,
  isMobile,
}) => {
  test.skip(isMobile, "runs once: the limit is per address, not per screen");
  const [address, later] = twoAddresses();
  for (let i = 0; i < 10; i += 1) {
    const body = new URLSearchParams({
      email: uniqueEmail("limit"),
      altcha: await solvedOutsideBrowser(baseURL!, address),
    });
    const response = await fetch(`${baseURL}/forgot-password`, {
      method: "POST",
      body,
      headers: { Origin: baseURL!, "X-Forwarded-For": address },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
  }

  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  await page.goto("/forgot-password");
  const email = uniqueEmail("reset");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Too many reset requests from this connection. Please wait a while and try again.",
  );
  await expectFreshCaptcha(page, "Send Reset Link");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

  // The hour passes (another address stands in for it): the same page, a new solve, and it goes through.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": later });
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("status")).toHaveText("Password reset email sent! Check your inbox.");
  await expect(page.getByText(CAPTCHA_MESSAGE)).toHaveCount(0);
});

test.describe("with the real 11-second sign-up throttle", () => {
  test.skip(({ isMobile }) => isMobile, "runs once: the throttle is per address, not per screen");
  // The run's second server keeps the site's own throttle (the first turns it off), and trusts
  // the proxy header so that a test can stand in another address for the seconds passing.
  const url = E2E_SERVICES_SERVER.url;

  test("a sign-up refused by the throttle goes through on the next try", async ({ page }) => {
    const fill = async (email: string) => {
      await page.getByLabel("First name").fill("Ivy");
      await page.getByLabel("Last name").fill("Hale");
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
    };
    // The server outlives a try of this test: each try signs up from an address of its own, which
    // the throttle has not seen within its 11 seconds.
    const [address, later] = twoAddresses();
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
    await page.goto(`${url}/auth?mode=signup`);
    await fill(uniqueEmail("first"));
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("status")).toHaveText("Account created successfully! You can now sign in.");

    await page.goto(`${url}/auth?mode=signup`);
    const second = uniqueEmail("second");
    await fill(second);
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please wait a few seconds before trying again");
    await expectFreshCaptcha(page, "Create Account");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(second);

    // The passwords are never sent back; the member types them again.
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
    // The seconds pass (another address stands in for them, as the throttle is per address): the
    // same page, a new solve, and it goes through. tests/features/accounts/accounts.test.ts lets the real
    // window pass on a moved clock.
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": later });
    await solveCaptcha(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("status")).toHaveText("Account created successfully! You can now sign in.");
  });
});
