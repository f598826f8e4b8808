import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCaptcha } from "~/platform/captcha.server";
import { config, overrideConfig, parseConfig } from "~/platform/config.server";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

/** A real HTTP server standing in for the provider's siteverify endpoint. */
describe("a hosted CAPTCHA (Turnstile or hCaptcha) instead of ALTCHA", () => {
  const received: URLSearchParams[] = [];
  let server: http.Server;
  let url = "";
  const original = config().captcha;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        received.push(form);
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ success: form.get("response") === "good-token" && form.get("secret") === "shh" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/siteverify`;
  });
  afterAll(async () => {
    overrideConfig({ captcha: original });
    await new Promise((resolve) => server.close(resolve));
  });

  it("needs both keys to be configured", () => {
    expect(() => parseConfig({ CAPTCHA_PROVIDER: "turnstile" })).toThrow(
      /CAPTCHA_PROVIDER: turnstile and hcaptcha need CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY/,
    );
  });

  it("asks the provider with the secret, the token and the client's address", async () => {
    overrideConfig({
      captcha: { ...original, provider: "turnstile", siteKey: "site", secretKey: "shh", verifyUrl: url },
    });
    expect(await verifyCaptcha({ "cf-turnstile-response": "good-token" }, "203.0.113.9")).toBe(true);
    expect(await verifyCaptcha({ "cf-turnstile-response": "bad-token" }, "203.0.113.9")).toBe(false);
    expect(await verifyCaptcha({ altcha: "anything" }, "203.0.113.9")).toBe(false);
    expect(received[0]!.get("remoteip")).toBe("203.0.113.9");

    overrideConfig({
      captcha: { ...original, provider: "hcaptcha", siteKey: "site", secretKey: "shh", verifyUrl: url },
    });
    expect(await verifyCaptcha({ "h-captcha-response": "good-token" }, "203.0.113.9")).toBe(true);
    expect(received.at(-1)!.get("sitekey")).toBe("site");
  });

  it("refuses when the provider cannot be reached", async () => {
    overrideConfig({
      captcha: {
        ...original,
        provider: "turnstile",
        siteKey: "site",
        secretKey: "shh",
        verifyUrl: "http://127.0.0.1:1/siteverify",
      },
    });
    expect(await verifyCaptcha({ "cf-turnstile-response": "good-token" }, "203.0.113.9")).toBe(false);
  });
});
