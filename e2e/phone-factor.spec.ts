import { expect, test, type Page } from "@playwright/test";
import { startWebhookServer } from "../tests/helpers/webhook";
import { expectAccessible } from "./axe";
import { mainNav, signIn } from "./helpers";
import { startOwnServer, type OwnServer } from "./own-server";

/**
 * A phone as a second factor in Chromium: the production build runs with an SMS gateway
 * configured (SMS_WEBHOOK_URL), a real HTTP server here standing in for the gateway, on its own
 * data directory for each browser width. The codes are read from what the gateway received.
 */

/** Sign-ins hash a password on a shared 2-core machine: each step may take a while. */
const SLOW = { timeout: 30_000 };

test.describe("codes by text message", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  const member = { email: "ida.whitlock@e2e.test", password: "Whitlock#1877" };
  let gateway: Awaited<ReturnType<typeof startWebhookServer>>;
  let server: OwnServer;
  let site: string;

  /** The code in the next text the gateway receives (the outbox worker sends it within a second). */
  async function nextText(after: number): Promise<{ to: string; code: string }> {
    await expect.poll(() => gateway.accepted.length, { timeout: 20_000 }).toBeGreaterThan(after);
    const body = gateway.accepted.at(-1)!.body;
    return { to: String(body.to), code: String(body.text).match(/\b(\d{6})\b/)![1]! };
  }

  async function passwordStep(page: Page) {
    await page.goto(`${site}/auth`);
    await signIn(page, member.email, member.password);
    await expect(page).toHaveURL(/\/auth\/two-factor\?method=sms/, SLOW);
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    gateway = await startWebhookServer();
    server = await startOwnServer({
      name: "sms",
      env: { OUTBOX_POLL_MS: "200", SMS_WEBHOOK_URL: gateway.url, SMS_WEBHOOK_TOKEN: "e2e-gateway-token" },
      members: [{ ...member, first: "Ida", last: "Whitlock", role: "player" }],
    });
    site = server.site;
  });

  test.afterAll(async () => {
    await server?.stop();
    await gateway?.close();
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
    const before = gateway.accepted.length;
    await adding.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.getByText("We have texted a 6-digit code to •••• 42.")).toBeVisible(SLOW);
    const enrolment = await nextText(before);
    expect(enrolment.to).toBe("+18605550142");
    expect(gateway.accepted.at(-1)!.headers.authorization).toBe("Bearer e2e-gateway-token");
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
    const sentBefore = gateway.accepted.length;
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
