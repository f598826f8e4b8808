import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports";
import { run } from "../helpers/processes";
import { startStripeStandIn } from "../helpers/stripe-stand-in";

/** `npm run stripe:check`: whether Stripe answers to the configured key, and in which mode, before anyone pays. */
async function stripeCheck(env: Record<string, string>, unset: string[] = []) {
  const child = run(process.execPath, ["--import", "tsx", "scripts/stripe-check.ts"], env, { unset });
  const { code } = await child.exited;
  return { code, output: child.output() };
}

const WEBHOOK_SECRET = "whsec_hopewell_check";

describe("npm run stripe:check", () => {
  const refusing = http.createServer((_req, res) => {
    // What Stripe answers to a key it does not know.
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_********nown" },
      }),
    );
  });
  afterAll(() => new Promise((resolve) => refusing.close(resolve)));

  it("says Stripe answers to the key, and that a test-mode key charges nothing", async () => {
    const stripe = await startStripeStandIn();
    try {
      const checked = await stripeCheck({
        STRIPE_SECRET_KEY: "sk_test_hopewell_check",
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      });
      expect(checked.code, checked.output).toBe(0);
      expect(checked.output).toContain("Stripe answers to STRIPE_SECRET_KEY: a test-mode key, so no card is charged");
      expect(stripe.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(["GET /v1/checkout/sessions"]);
    } finally {
      await stripe.close();
    }
  });

  it("names STRIPE_SECRET_KEY with Stripe's refusal, and says when tickets are off", async () => {
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
    const refused = await stripeCheck({
      STRIPE_SECRET_KEY: "sk_test_unknown",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: url,
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("Stripe did not accept STRIPE_SECRET_KEY: Invalid API Key provided");
    expect(refused.output).not.toMatch(/\n\s+at /);

    // Nothing answers at all: the network is named, not the key.
    const closed = await freePort();
    const unreachable = await stripeCheck({
      STRIPE_SECRET_KEY: "sk_test_hopewell_check",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${closed}`,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toContain("Stripe could not be reached from this server:");
    expect(unreachable.output).toContain("The key was not checked.");
    expect(unreachable.output).not.toContain("Copy the key again");

    const off = await stripeCheck({}, ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]);
    expect(off.code).toBe(1);
    expect(off.output).toContain(
      "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set: tickets are not sold on the site.",
    );
  });
});
