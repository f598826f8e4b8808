import type Stripe from "stripe";
import { config } from "~/platform/config.server";

type Config = ReturnType<typeof config>;
type Settings = NonNullable<Config["stripe"]>;

/** The client for the settings it was made with: one per settings, however many ask at once. */
let current: { settings: Settings; stripe: Promise<Stripe> } | undefined;

/**
 * The Stripe SDK for the club's account, or undefined while tickets are not sold on the site
 * (no STRIPE_SECRET_KEY). STRIPE_API_URL points it at a stand-in of Stripe's API instead of
 * Stripe's own (the tests). The SDK is loaded on first use: a site that sells no tickets never
 * holds it (about 4 MB of memory).
 */
export async function stripeClient(): Promise<Stripe | undefined> {
  const settings = config().stripe;
  if (!settings) return undefined;
  if (current?.settings !== settings) current = { settings, stripe: makeClient(settings) };
  return current.stripe;
}

async function makeClient(settings: Settings): Promise<Stripe> {
  const { default: Stripe } = await import("stripe");
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
    // Stripe's SDK retries with the same idempotency key, so a retried request never charges twice.
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: "Hopewell members' site" },
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "https:" ? 443 : 80),
          protocol: api.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

/** True when tickets are sold on the site (both Stripe keys set). */
export function ticketSalesEnabled(): boolean {
  return config().stripe !== undefined;
}

/**
 * Where Buy a ticket sends the browser: Stripe's checkout pages (or the stand-in serving them in
 * the tests, at STRIPE_API_URL). The page's form-action policy must allow it, or a browser that
 * sends the form itself (no script yet, or none at all) stops at the redirect.
 */
export function stripeCheckoutOrigins(cfg: Config = config()): string[] {
  if (!cfg.stripe) return [];
  return [cfg.stripe.apiUrl ? new URL(cfg.stripe.apiUrl).origin : "https://checkout.stripe.com"];
}
