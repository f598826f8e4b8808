import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { E2E_SERVICES_SERVER, E2E_STAND_INS } from "../playwright.config";
import { acceptedPosts } from "../tests/helpers/webhook";
import { expectAccessible } from "./axe";
import { createMember, mainNav, signIn } from "./helpers";

/**
 * A phone as a second factor in Chromium: the production build runs with an SMS gateway
 * configured (SMS_WEBHOOK_URL): the run's second server (E2E_SERVICES_SERVER in
 * playwright.config.ts), a real HTTP server started for the run standing in for the gateway
 * (e2e/global-setup.ts). The codes are read from what the gateway received.
 */

/** Sign-ins hash a password on a shared 2-core machine: each step may take a while. */
const SLOW = { timeout: 30_000 };

test.describe("codes by text message", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  const site = E2E_SERVICES_SERVER.url;
  let member: { email: string; password: string };
  const gatewayTexts = () => acceptedPosts(E2E_STAND_INS.smsGatewayUrl);

  /** The next text the gateway receives after the first `after` (the outbox worker sends it within a second). */
  async function nextText(after: number): Promise<{ to: string; code: string; authorization: string | undefined }> {
    await expect.poll(async () => (await gatewayTexts()).length, { timeout: 20_000 }).toBeGreaterThan(after);
    const { body, headers } = (await gatewayTexts()).at(-1)!;
    return {
      to: String(body.to),
      code: String(body.text).match(/\b(\d{6})\b/)![1]!,
      authorization: headers.authorization,
    };
  }

  async function passwordStep(page: Page) {
    await page.goto(`${site}/auth`);
    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(/\/auth\/two-factor\?method=sms/, SLOW);
  }

  test.beforeAll(async () => {
    // The server outlives a try of this test (a retry, a repeat): each makes its member anew.
    member = { email: `ida.whitlock-${crypto.randomBytes(3).toString("hex")}@e2e.test`, password: "Whitlock#1877" };
    await createMember({ ...member, first: "Ida", last: "Whitlock", role: "player" }, E2E_SERVICES_SERVER);
  });

  test("add a phone confirmed by a texted code, sign out, sign in with a texted code", async ({ page, isMobile }) => {
    await page.goto(`${site}/auth?redirectTo=%2Fprofile%2Ftwo-factor`);
    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(`${site}/profile/two-factor`, SLOW);
    await expect(page.getByRole("heading", { level: 3, name: "Codes by text message" })).toBeVisible();
    await expectAccessible(page);

    const adding = page.getByRole("form", { name: "Add a phone for text messages" });
    await adding.getByLabel("Mobile phone number").fill("(860) 555-0142");
    await adding.getByLabel("Your password", { exact: true }).fill(member.password);
    const before = (await gatewayTexts()).length;
    await adding.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.getByText("We have texted a 6-digit code to •••• 42.")).toBeVisible(SLOW);
    const enrolment = await nextText(before);
    expect(enrolment.to).toBe("+18605550142");
    expect(enrolment.authorization).toBe(`Bearer ${E2E_STAND_INS.smsGatewayToken}`);
    await expectAccessible(page);
    await page.getByLabel("Code from the text message").fill(enrolment.code);
    await page.getByRole("button", { name: "Confirm phone number" }).click();
    await expect(page.getByText("Your phone is confirmed")).toBeVisible(SLOW);
    await expect(page.getByTestId("two-factor-status")).toContainText("On");
    await expect(page.getByTestId("phone-status")).toContainText("ending in 42");

    const nav = await mainNav(page, isMobile);
    await nav.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0, SLOW);

    // The second step offers the phone first; the text arrives, and its code signs in.
    await passwordStep(page);
    await expect(page.getByLabel("Texted code")).toBeVisible();
    await expectAccessible(page);
    const sentBefore = (await gatewayTexts()).length;
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.getByText("We have texted you a code.")).toBeVisible(SLOW);
    const signInText = await nextText(sentBefore);
    await page.getByLabel("Texted code").fill(signInText.code);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(`${site}/`, SLOW);

    // A used code does not work again.
    const nav2 = await mainNav(page, isMobile);
    await nav2.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0, SLOW);
    await passwordStep(page);
    await page.getByLabel("Texted code").fill(signInText.code);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That texted code has expired or was already used.")).toBeVisible(SLOW);
  });
});
