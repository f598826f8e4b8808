import { data } from "react-router";
import type { Route } from "./+types/stripe-webhook";
import { receiveStripeWebhook } from "~/features/tickets/webhook.server";

/**
 * Stripe's webhook endpoint (POST /webhooks/stripe): the body is read as Stripe sent it, as
 * its signature covers those exact bytes. A 2xx tells Stripe the event is kept; anything else
 * makes Stripe send it again later.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") throw data("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  const answer = await receiveStripeWebhook(await request.text(), request.headers.get("Stripe-Signature"));
  return new Response(answer.body, {
    status: answer.status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Nothing to read here: a browser that opens the address gets a plain answer, not an error page. */
export function loader() {
  return new Response("Stripe's webhook endpoint: it takes POSTs from Stripe only.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });
}
