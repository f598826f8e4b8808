import { expect, test } from "@playwright/test";

// Whole journeys: several pages and CAPTCHA solves each, on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });
import { expectAccessible } from "./axe";
import { mainNav, signIn, signUp, solveCaptcha, uniqueEmail } from "./helpers";

const PASSWORD = "Lantern#1877";

test("a new member signs up, signs in and signs out", async ({ page, isMobile }) => {
  const email = uniqueEmail("clara");
  await page.goto("/auth");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot Password?" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create Account" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot Password?" })).toHaveCount(0);
  await expect(page.getByText(/agree to play by the rulebook/)).toBeVisible();

  // The checklist follows the password as it is typed.
  const rules = page.locator("#password-rules li");
  const password = page.getByLabel("Password", { exact: true });
  await password.fill("abc");
  await expect(rules.filter({ hasText: "One lowercase letter" })).toHaveAttribute("data-met", "true");
  await expect(rules.filter({ hasText: "At least 8 characters" })).toHaveAttribute("data-met", "false");
  await password.fill(PASSWORD);
  for (const rule of await rules.all()) await expect(rule).toHaveAttribute("data-met", "true");

  // Show and hide the password.
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");

  await page.getByLabel("First name").fill("Clara");
  await page.getByLabel("Last name").fill("Dunmore");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Confirm password", { exact: true }).fill("Lantern#1878");
  const submit = page.getByRole("button", { name: "Create Account" });
  await expect(submit).toBeDisabled();
  await solveCaptcha(page);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
  await expectAccessible(page);

  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await submit.click();
  await expect(page).toHaveURL(/\/auth\?created=1$/);
  await expect(page.getByRole("status")).toHaveText("Account created successfully! You can now sign in.");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");

  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Apply Now" }).first()).toHaveAttribute("href", "/application");
  let nav = await mainNav(page, isMobile);
  await expect(nav.getByRole("link", { name: "Events" })).toBeVisible();
  await expect(nav.getByText("Forms")).toBeVisible();
  await expect(nav.getByRole("link", { name: "Profile" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Tools" })).toHaveCount(0);
  await nav.getByRole("link", { name: "Profile" }).click();
  await expect(page.getByTestId("role")).toHaveText("Applicant");

  nav = await mainNav(page, isMobile);
  await nav.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  // The URL changes before the signed-out page has rendered (and closed the phone menu).
  await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
  nav = await mainNav(page, isMobile);
  await expect(nav.getByRole("link", { name: "Login / Sign Up" })).toBeVisible();
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);
});

test("signing in from a member page returns to it", async ({ page, isMobile }) => {
  test.skip(isMobile, "runs at desktop width: the redirect does not depend on the width");
  const email = uniqueEmail("amos");
  await signUp(page, { firstName: "Amos", lastName: "Pickett", email, password: PASSWORD });
  await page.goto("/events");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fevents$/);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/events$/);
  // Other tests add events, so the list may or may not be empty here (tests/features/events/events.test.ts covers both).
  await expect(page.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();
  await expectAccessible(page);
});

test("the sign-in page loads its own small script, not the app, even when the app opens it", async ({
  page,
  isMobile,
}) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/forgot-password");
  // The app runs here: React Router's own data is in the page.
  await expect.poll(() => page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
  const appScripts = scripts.length;
  expect(appScripts).toBeGreaterThan(0);

  // The header's link would change page inside the app; the sign-in page is loaded whole instead.
  const nav = await mainNav(page, isMobile);
  await nav.getByRole("link", { name: "Login / Sign Up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
  const own = scripts.slice(appScripts);
  expect(own.some((script) => /\/assets\/auth\.page-[\w-]+\.js$/.test(script))).toBe(true);
  expect(own.filter((script) => /entry\.client|jsx-runtime|manifest/.test(script))).toEqual([]);

  // The form's check (Zod) comes only when the form is first touched; held back here, so the
  // form is sent before it arrives.
  expect(own.filter((script) => /auth-check/.test(script))).toEqual([]);
  let releaseCheck!: () => void;
  const checkHeld = new Promise<void>((resolve) => (releaseCheck = resolve));
  await page.route(/\/assets\/auth-check-[\w-]+\.js$/, async (route) => {
    await checkHeld;
    await route.continue();
  });

  // Everything on it still works: the form's own check, the CAPTCHA, the password toggle.
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  await solveCaptcha(page);
  // Nothing is sent while the check is on its way; once it is here, it runs in this same page.
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.evaluate(() => ((window as Window & { samePage?: boolean }).samePage = true));
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByLabel("Email", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  releaseCheck();
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);
  expect(await page.evaluate(() => (window as Window & { samePage?: boolean }).samePage)).toBe(true);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription("This field is required");
  await expect(page.getByLabel("Email", { exact: true })).toBeFocused();
  await expectAccessible(page);
});

test("a wrong password gets the service's message", async ({ page, isMobile }) => {
  test.skip(isMobile, "runs at desktop width: the message does not depend on the width");
  await page.goto("/auth");
  await signIn(page, uniqueEmail("nobody"), "Wrong#12345");
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test.skip(({ isMobile }) => isMobile, "runs at desktop width: what the server answers does not depend on the width");

  test("the forms still submit and explain what is needed", async ({ page }) => {
    await page.goto("/auth?mode=signup");
    await expect(page.getByText("The CAPTCHA needs JavaScript.")).toBeVisible();
    await page.getByLabel("First name").fill("Hattie");
    await page.getByLabel("Last name").fill("Quill");
    await page.getByLabel("Email", { exact: true }).fill("hattie@example.com");
    await page.getByLabel("Password", { exact: true }).fill("weak");
    await page.getByLabel("Confirm password", { exact: true }).fill("weak");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please meet all password requirements");
    // Nothing typed is lost but the passwords.
    await expect(page.getByLabel("First name")).toHaveValue("Hattie");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("hattie@example.com");

    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please complete the CAPTCHA");
  });
});
