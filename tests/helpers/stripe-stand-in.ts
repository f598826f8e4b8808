import crypto from "node:crypto";
import http from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll, expect } from "vitest";
import { config, overrideConfig } from "~/platform/config.server";
import { postForm } from "./forms";
import { stripeRequestChecker } from "./stripe-openapi";

/** A Checkout Session as the stand-in keeps it (the fields the site reads). */
export type StandInSession = {
  id: string;
  object: "checkout.session";
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  product: string;
  created: number;
};

/**
 * A small HTTP server playing Stripe's API for the calls the site makes (create, retrieve, end and
 * list Checkout Sessions, refund a payment), honouring Idempotency-Key as Stripe does and refusing,
 * with Stripe's errors, any request its published description or documented rules would refuse
 * (tests/helpers/stripe-openapi.ts); the real `stripe` SDK talks to it
 * through STRIPE_API_URL. `pay` completes a session as a buyer at Stripe's page would, and
 * `event` builds the event Stripe would send about it, signed with the SDK's own test signer.
 * With `webhook`, it also serves Stripe's checkout page (/pay/:id): its Pay button completes the
 * session, sends the app the signed checkout.session.completed, and returns to the success URL.
 */
export async function startStripeStandIn(options: { port?: number; webhook?: { url: string; secret: string } } = {}) {
  const sessions = new Map<string, StandInSession>();
  const byIdempotencyKey = new Map<string, string>();
  const requests: { method: string; path: string; idempotencyKey?: string }[] = [];
  const refunds: { id: string; object: "refund"; payment_intent: string | null; amount: number; status: string }[] = [];
  const refundsByKey = new Map<string, (typeof refunds)[number]>();
  let refusing: false | "outage" | "key" = false;
  const checker = stripeRequestChecker();
  /** Requests refused as Stripe would refuse them, for a test to read. */
  const refused: { method: string; path: string; error: string }[] = [];

  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0]!;
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method!, path, idempotencyKey });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${crypto.randomUUID()}` });
        res.end(JSON.stringify(payload));
      };
      if (refusing === "outage")
        return send(500, { error: { type: "api_error", message: "The stand-in is refusing requests" } });
      if (refusing === "key")
        return send(401, {
          error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_****" },
        });
      // Each request is held to Stripe's published description and its documented rules (the
      // 30-minute least expiry, keys reused with other parameters...), before any answer.
      if (path.startsWith("/v1/")) {
        const verdict = checker.check({
          method: req.method!,
          path,
          query: (req.url ?? "").split("?")[1] ?? "",
          body,
          headers: req.headers,
        });
        if (!verdict.ok) {
          refused.push({ method: req.method!, path, error: verdict.error.message });
          return send(verdict.status, { error: verdict.error });
        }
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
        if (known) return send(200, sessions.get(known));
        const form = new URLSearchParams(body);
        const metadata = Object.fromEntries(
          [...form].filter(([key]) => key.startsWith("metadata[")).map(([key, value]) => [key.slice(9, -1), value]),
        );
        const id = `cs_test_${crypto.randomBytes(12).toString("hex")}`;
        const session: StandInSession = {
          id,
          object: "checkout.session",
          url: `${base}/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
          currency: form.get("line_items[0][price_data][currency]") ?? "usd",
          client_reference_id: form.get("client_reference_id"),
          customer_email: form.get("customer_email"),
          metadata,
          payment_intent: null,
          expires_at: Number(form.get("expires_at")),
          success_url: form.get("success_url") ?? "",
          cancel_url: form.get("cancel_url") ?? "",
          product: form.get("line_items[0][price_data][product_data][name]") ?? "",
          created: Math.floor(Date.now() / 1000),
        };
        sessions.set(id, session);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
        return send(200, session);
      }
      if (req.method === "GET" && path === "/v1/checkout/sessions") {
        // Newest first, as Stripe lists; one page is enough for the tests' few sessions.
        const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
        const since = Number(query.get("created[gte]") ?? 0);
        const data = [...sessions.values()].filter((session) => session.created >= since).reverse();
        return send(200, { object: "list", url: "/v1/checkout/sessions", has_more: false, data });
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        const known = idempotencyKey ? refundsByKey.get(idempotencyKey) : undefined;
        if (known) return send(200, known);
        const form = new URLSearchParams(body);
        const intent = form.get("payment_intent");
        const paid = [...sessions.values()].find(
          (session) => session.payment_intent !== null && session.payment_intent === intent,
        );
        if (!paid)
          return send(404, {
            error: {
              type: "invalid_request_error",
              param: "payment_intent",
              message: `No such payment_intent: '${intent}'`,
            },
          });
        if (refunds.some((refund) => refund.payment_intent === intent)) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: `Charge ${chargeOf(intent!)} has already been refunded.`,
            },
          });
        }
        const refund = stand.refund(intent!);
        if (idempotencyKey) refundsByKey.set(idempotencyKey, refund);
        return send(200, refund);
      }
      const expire = path.match(/^\/v1\/checkout\/sessions\/(cs_[A-Za-z0-9_]+)\/expire$/);
      if (req.method === "POST" && expire) {
        const session = sessions.get(expire[1]!);
        if (!session)
          return send(404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
        if (session.status !== "open")
          return send(400, {
            error: {
              type: "invalid_request_error",
              message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
            },
          });
        session.status = "expired";
        return send(200, session);
      }
      const checkout = path.match(/^\/pay\/(cs_[A-Za-z0-9_]+)$/);
      if (checkout && sessions.has(checkout[1]!)) {
        const session = sessions.get(checkout[1]!)!;
        if (req.method === "GET") {
          const price = `$${(session.amount_total / 100).toFixed(2)}`;
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          if (session.status !== "open")
            return res.end(
              `<!doctype html><html lang="en"><head><title>Checkout</title></head><body><main><h1>This checkout has ended</h1></main></body></html>`,
            );
          return res.end(
            `<!doctype html><html lang="en"><head><title>Checkout</title></head><body><main><h1>Stripe checkout (stand-in)</h1><p><a href="${escapeHtml(session.cancel_url)}">Back</a></p><p>${escapeHtml(session.product)}</p><form method="post"><button>Pay ${price}</button></form></main></body></html>`,
          );
        }
        if (req.method === "POST" && options.webhook) {
          const paid = stand.pay(session.id);
          const notice = stand.event("checkout.session.completed", paid, options.webhook.secret);
          void fetch(options.webhook.url, {
            method: "POST",
            headers: { "Content-Type": "application/json", "Stripe-Signature": notice.signature },
            body: notice.payload,
          })
            .then((answer) => answer.text())
            .finally(() => {
              res.writeHead(303, { Location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) });
              res.end();
            });
          return;
        }
      }
      const retrieve = path.match(/^\/v1\/checkout\/sessions\/(cs_[A-Za-z0-9_]+)$/);
      if (req.method === "GET" && retrieve) {
        const session = sessions.get(retrieve[1]!);
        return session
          ? send(200, session)
          : send(404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
      }
      send(404, {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const signer = new Stripe("sk_test_stand_in_signer").webhooks;

  const stand = {
    url: base,
    sessions,
    requests,
    refunds,
    refused,
    /** Makes every API call fail, as when Stripe cannot be reached, or (`key`) as when it refuses the site's key. */
    refuse(on: boolean, why: "outage" | "key" = "outage") {
      refusing = on ? why : false;
    },
    /** The buyer paid on Stripe's page: the session is complete and paid. */
    pay(sessionId: string): StandInSession {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: `pi_${sessionId.slice(8)}`,
      });
      return session;
    },
    /** A refund of a paid session's payment, as Stripe makes it (asked for by the site, or made in the dashboard). */
    refund(paymentIntent: string) {
      const session = [...sessions.values()].find((candidate) => candidate.payment_intent === paymentIntent);
      const refund = {
        id: `re_${crypto.randomBytes(12).toString("hex")}`,
        object: "refund" as const,
        payment_intent: paymentIntent,
        amount: session?.amount_total ?? 0,
        status: "succeeded",
      };
      refunds.push(refund);
      return refund;
    },
    /** The charge behind a refunded payment, as Stripe's charge.refunded notice carries it. */
    refundedCharge(paymentIntent: string) {
      const session = [...sessions.values()].find((candidate) => candidate.payment_intent === paymentIntent);
      const amount = session?.amount_total ?? 0;
      return {
        id: chargeOf(paymentIntent),
        object: "charge",
        payment_intent: paymentIntent,
        amount,
        amount_refunded: amount,
        refunded: true,
        currency: session?.currency ?? "usd",
      };
    },
    /** The event Stripe would send about a session, and its Stripe-Signature header for `secret`. */
    event(type: string, session: StandInSession | Record<string, unknown>, secret: string) {
      const event = {
        id: `evt_${crypto.randomBytes(12).toString("hex")}`,
        object: "event",
        type,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: session },
      };
      const payload = JSON.stringify(event);
      return { id: event.id, payload, signature: signer.generateTestHeaderString({ payload, secret }) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}

function chargeOf(paymentIntent: string): string {
  return `ch_${paymentIntent.replace(/^pi_/, "")}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

/**
 * For a test file of the app server (after withAppServer): tickets sold on the site against a
 * stand-in of Stripe, with `webhookSecret` as the endpoint's signing secret, for the whole file.
 */
export function withStripeStandIn(webhookSecret: string): () => StripeStandIn {
  let stripe: StripeStandIn | undefined;
  let saved: ReturnType<typeof config>["stripe"];
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    saved = config().stripe;
    overrideConfig({ stripe: { secretKey: "sk_test_hopewell_stand_in", webhookSecret, apiUrl: stripe.url } });
  });
  afterAll(async () => {
    overrideConfig({ stripe: saved });
    await stripe?.close();
    // The site never sent Stripe a request Stripe would refuse.
    expect(stripe?.refused ?? []).toEqual([]);
  });
  return () => {
    if (!stripe) throw new Error("The Stripe stand-in starts in beforeAll");
    return stripe;
  };
}

/**
 * The steps a ticket test takes against the app and the stand-in: a member's press of Buy a
 * ticket (the Checkout Session it opened), paying on Stripe's page, and a notice Stripe signs and
 * sends the webhook (its answer's text: recorded, mismatch, ...).
 */
export function ticketSteps(app: () => { url: string }, standIn: () => StripeStandIn, webhookSecret: string) {
  async function buy(eventId: string, cookie: string): Promise<string> {
    const sent = await postForm(app().url, "/events", { intent: "buy_ticket", eventId }, cookie);
    expect(sent.status).toBe(302);
    return sent.headers.get("Location")!.split("/").pop()!;
  }
  async function buyAndPay(eventId: string, cookie: string): Promise<string> {
    const sessionId = await buy(eventId, cookie);
    standIn().pay(sessionId);
    return sessionId;
  }
  async function notify(type: string, object: object): Promise<string> {
    const notice = standIn().event(type, object as never, webhookSecret);
    const answer = await fetch(`${app().url}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": notice.signature },
      body: notice.payload,
    });
    expect(answer.status).toBe(200);
    return answer.text();
  }
  return { buy, buyAndPay, notify };
}
