import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./own-server";

// Turnstile or hCaptcha in ALTCHA's place on the sign-in page, which the server draws without
// React: the page's Content-Security-Policy lets the provider's script in, the script puts its
// widget into the form, the form waits for it, and the token it leaves in the form reaches the
// provider's check. The providers' scripts cannot be fetched here (no internet), so the browser is
// given a stand-in at the script's address that keeps the provider's side of the contract:
// `render(element, options)` puts the hidden response field into the element and calls
// `options.callback` once solved. The check (siteverify) is a local HTTP server. The stand-in
// draws no frame of the provider's, so the policy's frame-src for it is not what this shows.
test.describe.configure({ timeout: 180_000, mode: "serial" });

// Each provider's published test keys and token: the site key always passes, the token is what it gives.
const PROVIDERS = [
  {
    name: "turnstile",
    script: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    field: "cf-turnstile-response",
    siteKey: "1x00000000000000000000AA",
    secretKey: "1x0000000000000000000000000000000AA",
    token: "XXXX.DUMMY.TOKEN.XXXX",
  },
  {
    name: "hcaptcha",
    script: "https://js.hcaptcha.com/1/api.js?render=explicit",
    field: "h-captcha-response",
    siteKey: "10000000-ffff-ffff-ffff-000000000001",
    secretKey: "0x0000000000000000000000000000000000000000",
    token: "10000000-aaaa-bbbb-cccc-000000000001",
  },
] as const;

const MEMBER = {
  first: "Tilly",
  last: "Widget",
  email: "tilly.widget@e2e.test",
  password: "Lantern#1877",
  role: "player" as const,
};

function standIn({ name, field }: (typeof PROVIDERS)[number], token: string): string {
  return `
window[${JSON.stringify(name)}] = {
  render(element, options) {
    const box = document.createElement("button");
    box.type = "button";
    box.textContent = "Verify you are human";
    box.dataset.sitekey = options.sitekey;
    box.addEventListener("click", () => {
      let answer = element.querySelector("[name=${field}]");
      if (!answer) {
        answer = document.createElement("input");
        answer.type = "hidden";
        answer.name = ${JSON.stringify(field)};
        element.append(answer);
      }
      answer.value = ${JSON.stringify(token)};
      options.callback(answer.value);
    });
    element.append(box);
    return "widget-1";
  },
  reset() {},
};`;
}

type Verification = { secret: string | null; response: string | null; remoteip: string | null; sitekey: string | null };

for (const provider of PROVIDERS) {
  test.describe(provider.name, () => {
    const verifications: Verification[] = [];
    let verifier: http.Server | undefined;
    let server: OwnServer | undefined;

    test.beforeAll(async () => {
      // A server of its own on a new data directory, and its member made with the admin command:
      // on a busy 2-core machine that has taken more than a test's 30 seconds.
      test.setTimeout(120_000);
      verifier = http.createServer((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString()));
        req.on("end", () => {
          const form = new URLSearchParams(body);
          const asked = {
            secret: form.get("secret"),
            response: form.get("response"),
            remoteip: form.get("remoteip"),
            sitekey: form.get("sitekey"),
          };
          verifications.push(asked);
          res.setHeader("Content-Type", "application/json");
          res.end(
            JSON.stringify({ success: asked.secret === provider.secretKey && asked.response === provider.token }),
          );
        });
      });
      await new Promise<void>((resolve) => verifier!.listen(0, "127.0.0.1", resolve));
      server = await startOwnServer({
        name: provider.name,
        env: {
          CAPTCHA_PROVIDER: provider.name,
          CAPTCHA_SITE_KEY: provider.siteKey,
          CAPTCHA_SECRET_KEY: provider.secretKey,
          CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
        },
        members: [MEMBER],
      });
    });

    test.afterAll(async () => {
      await server?.stop();
      await new Promise((resolve) => (verifier ? verifier.close(resolve) : resolve(undefined)));
    });

    test("signs in through its widget on the sign-in page, the widget starting over after a refusal", async ({
      page,
    }) => {
      await page.route(provider.script, (route) =>
        route.fulfill({ contentType: "text/javascript", body: standIn(provider, provider.token) }),
      );
      const blocked: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(`${server!.site}/auth`);
      const signIn = page.getByRole("button", { name: "Sign In", exact: true });
      const widget = page.getByRole("button", { name: "Verify you are human" });
      // The provider's script ran (the policy let it in) and put its widget in the form, with the site's key.
      await expect(widget).toBeVisible();
      await expect(widget).toHaveAttribute("data-sitekey", provider.siteKey);
      expect(blocked).toEqual([]);

      await page.getByLabel("Email", { exact: true }).fill(MEMBER.email);
      await page.getByLabel("Password", { exact: true }).fill("Wrong#12345");
      await expect(signIn).toBeDisabled();
      await widget.click();
      await signIn.click();
      await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
      // The refusal is a page of its own: a token is good once, so its widget starts unsolved and the form waits for it again.
      await expect(widget).toBeVisible();
      await expect(page.locator(`[name=${provider.field}]`)).toHaveCount(0);
      await expect(signIn).toBeDisabled();
      await expect(page.getByLabel("Email", { exact: true })).toHaveValue(MEMBER.email);

      await page.getByLabel("Password", { exact: true }).fill(MEMBER.password);
      await widget.click();
      await signIn.click();
      await expect(page).toHaveURL(`${server!.site}/`);
      await expect(page.getByRole("link", { name: "Profile" }).first()).toBeVisible();

      // Each sign-in asked the provider with the site's secret, the token and the visitor's address (hCaptcha also wants the site key).
      const asked = {
        secret: provider.secretKey,
        response: provider.token,
        remoteip: "127.0.0.1",
        sitekey: provider.name === "hcaptcha" ? provider.siteKey : null,
      };
      expect(verifications).toEqual([asked, asked]);
    });

    test("refuses a sign-in whose token the provider does not accept", async ({ page }) => {
      await page.route(provider.script, (route) =>
        route.fulfill({ contentType: "text/javascript", body: standIn(provider, "forged") }),
      );
      await page.goto(`${server!.site}/auth`);
      await page.getByLabel("Email", { exact: true }).fill(MEMBER.email);
      await page.getByLabel("Password", { exact: true }).fill(MEMBER.password);
      await page.getByRole("button", { name: "Verify you are human" }).click();
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText("Please complete the CAPTCHA");
      await expect(page).toHaveURL(/\/auth/);
      expect(verifications.at(-1)?.response).toBe("forged");
    });
  });
}
