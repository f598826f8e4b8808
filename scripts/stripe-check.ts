/**
 * Asks Stripe, with the site's STRIPE_SECRET_KEY, for one Checkout Session: the guide's way to see
 * that the key is one Stripe answers to, and in which mode, before a member presses "Buy a ticket".
 *
 *   npm run stripe:check
 */
import "./settings";
import { stripeClient } from "~/features/tickets/stripe.server";
import { cliConfig, fail } from "./cli";

async function main() {
  const cfg = cliConfig({ database: false });
  if (!cfg.stripe)
    fail(
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set: tickets are not sold on the site. See "Tickets through Stripe" in docs/operators.md.',
    );
  const live = /^(sk|rk)_live_/.test(cfg.stripe.secretKey);
  const stripe = (await stripeClient())!;
  try {
    // Checkout Sessions are what the site uses, so a restricted key made for it may read them.
    await stripe.checkout.sessions.list({ limit: 1 });
  } catch (error) {
    // No answer at all is the network's doing, not the key's: copying the key again would not help.
    if ((error as { type?: string }).type === "StripeConnectionError") {
      fail(
        `Stripe could not be reached from this server: ${(error as Error).message} Check its network, firewall or proxy: the site must reach api.stripe.com on port 443. The key was not checked.`,
      );
    }
    fail(
      `Stripe did not accept STRIPE_SECRET_KEY: ${(error as Error).message} Copy the key again from Stripe's dashboard (Developers → API keys, ${live ? "with test mode off" : "in test mode"}); a restricted key needs write access to Checkout Sessions and Refunds.`,
    );
  }
  console.log(
    live
      ? "Stripe answers to STRIPE_SECRET_KEY: a live key, so tickets are paid for real."
      : "Stripe answers to STRIPE_SECRET_KEY: a test-mode key, so no card is charged (pay with the test card 4242 4242 4242 4242).",
  );
  console.log(
    "Stripe's notices of payments are signed with STRIPE_WEBHOOK_SECRET: the dashboard's Webhooks page shows whether the site answered them with 200.",
  );
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
