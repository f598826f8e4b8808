import http from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkStripeRules,
  stripeRequestChecker,
  validateStripeRequest,
  type StripeRequest,
} from "../../helpers/stripe-openapi";
import fixture from "../../fixtures/stripe-openapi.json";

/**
 * The check of requests to Stripe (tests/helpers/stripe-openapi.ts) against the requests the
 * stripe SDK really sends for the site's calls: a small server records them, answering as
 * Stripe would, and each is then checked.
 */

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);
const seconds = (ms: number) => Math.floor(ms / 1000);
const site = "http://127.0.0.1:5173";
const purchaseId = "0b3c2a8e-5d1f-4c1e-9a57-0f6a8d2c4b11";
const metadata = {
  purchase_id: purchaseId,
  member_id: "5f0e7a52-8c3b-4f5e-a2d1-6b9c0e3f7a24",
  event_id: "9d4b1c6e-2a7f-4e08-b5c3-1f8e6d0a9b35",
};

/** The Checkout Session the site asks for (app/features/tickets/checkout.server.ts), 30 minutes' hold from NOW. */
const sessionParams = (
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  line_items: [
    {
      quantity: 1,
      price_data: {
        currency: "usd",
        unit_amount: 1000,
        product_data: { name: "Hopewell ticket: The Long Night, Saturday, January 15, 2027" },
      },
    },
  ],
  client_reference_id: `${metadata.member_id}:${metadata.event_id}`,
  customer_email: "player@example.com",
  metadata,
  payment_intent_data: { metadata },
  expires_at: seconds(NOW + 30 * 60_000),
  success_url: `${site}/events/ticket?session_id={CHECKOUT_SESSION_ID}`,
  cancel_url: `${site}/events`,
  ...overrides,
});

const captured: StripeRequest[] = [];
let server: http.Server;
let stripe: Stripe;

function answer(method: string, path: string, query: URLSearchParams): unknown {
  const session = {
    id: "cs_test_1",
    object: "checkout.session",
    url: "https://checkout.stripe.com/c/pay/cs_test_1",
    status: "open",
    payment_status: "unpaid",
    metadata,
  };
  if (path === "/v1/checkout/sessions" && method === "GET") {
    // Two pages, so the SDK's auto-pagination sends starting_after as the reconciliation job's loop does.
    const second = query.has("starting_after");
    return {
      object: "list",
      url: path,
      has_more: !second,
      data: [{ ...session, id: second ? "cs_test_2" : "cs_test_1" }],
    };
  }
  if (path === "/v1/refunds" && method === "GET") return { object: "list", url: path, has_more: false, data: [] };
  if (path === "/v1/refunds") return { id: "re_1", object: "refund", status: "succeeded" };
  if (path === "/v1/account") return { id: "acct_1", object: "account" };
  if (path === "/v1/balance") return { object: "balance", available: [], pending: [] };
  return session;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const [path, query = ""] = (req.url ?? "").split("?") as [string, string?];
      captured.push({ method: req.method!, path, query, body, headers: req.headers });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer(req.method!, path, new URLSearchParams(query))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  // As app/features/tickets/stripe.server.ts makes it, pointed at the recording server.
  stripe = new Stripe("sk_test_recording", {
    maxNetworkRetries: 0,
    appInfo: { name: "Hopewell members' site" },
    host: "127.0.0.1",
    port,
    protocol: "http",
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The requests the SDK sends for `call`. */
async function sent(call: () => Promise<unknown>): Promise<StripeRequest[]> {
  const before = captured.length;
  await call();
  return captured.slice(before);
}

describe("Stripe's description of the site's requests", () => {
  it("is cut from Stripe's published description, with its version", () => {
    expect(fixture["x-source"]).toMatchObject({
      repository: "stripe/openapi",
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      apiVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
    });
    expect(Object.keys(fixture.paths).sort()).toEqual([
      "/v1/account",
      "/v1/balance",
      "/v1/checkout/sessions",
      "/v1/checkout/sessions/{session}",
      "/v1/checkout/sessions/{session}/expire",
      "/v1/refunds",
    ]);
  });
});

describe("the requests the site sends", () => {
  it("are all accepted, as the stripe SDK encodes them", async () => {
    const checker = stripeRequestChecker();
    const requests = [
      ...(await sent(() =>
        stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: `hopewell-ticket-${purchaseId}` }),
      )),
      ...(await sent(async () => {
        for await (const session of stripe.checkout.sessions.list({
          created: { gte: seconds(NOW - 48 * 60 * 60_000) },
          limit: 100,
        }))
          void session;
      })),
      ...(await sent(() => stripe.checkout.sessions.retrieve("cs_test_1"))),
      ...(await sent(() => stripe.checkout.sessions.expire("cs_test_1"))),
      ...(await sent(() =>
        stripe.refunds.create(
          { payment_intent: "pi_test_1", metadata: { purchase_id: purchaseId, reason: "event full" } },
          { idempotencyKey: `hopewell-refund-${purchaseId}` },
        ),
      )),
      ...(await sent(() => stripe.refunds.list({ payment_intent: "pi_test_1" }))),
      ...(await sent(() => stripe.accounts.retrieveCurrent())),
      ...(await sent(() => stripe.balance.retrieve())),
    ];
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/checkout/sessions",
      "GET /v1/checkout/sessions",
      "GET /v1/checkout/sessions",
      "GET /v1/checkout/sessions/cs_test_1",
      "POST /v1/checkout/sessions/cs_test_1/expire",
      "POST /v1/refunds",
      "GET /v1/refunds",
      "GET /v1/account",
      "GET /v1/balance",
    ]);
    for (const request of requests)
      expect(
        checker.check(request, NOW),
        `${request.method} ${request.path}?${request.query} ${request.body}`,
      ).toMatchObject({ ok: true });
    // The session's parameters arrive typed as the description says.
    expect(validateStripeRequest(requests[0]!)).toMatchObject({
      ok: true,
      params: {
        expires_at: seconds(NOW + 30 * 60_000),
        line_items: [{ quantity: 1, price_data: { unit_amount: 1000 } }],
        metadata,
      },
    });
    expect(validateStripeRequest(requests[2]!)).toMatchObject({
      ok: true,
      params: { created: { gte: seconds(NOW - 48 * 60 * 60_000) }, limit: 100, starting_after: "cs_test_1" },
    });
  });
});

describe("a request Stripe would refuse", () => {
  async function checkoutRequest(params: Stripe.Checkout.SessionCreateParams): Promise<StripeRequest> {
    const [request] = await sent(() => stripe.checkout.sessions.create(params));
    return request!;
  }

  it("names an unknown parameter", async () => {
    const request = await checkoutRequest(sessionParams());
    expect(validateStripeRequest({ ...request, body: `${request.body}&foo=bar` })).toEqual({
      ok: false,
      status: 400,
      error: { type: "invalid_request_error", message: "Received unknown parameter: foo", param: "foo" },
    });
    expect(
      validateStripeRequest({ ...request, body: `${request.body}&line_items[0][price_data][colour]=red` }),
    ).toMatchObject({ ok: false, error: { message: "Received unknown parameter: line_items[0][price_data][colour]" } });
    // metadata is the one object whose keys are the site's own.
    expect(validateStripeRequest({ ...request, body: `${request.body}&metadata[anything]=at+all` })).toMatchObject({
      ok: true,
    });
  });

  it("has a value of the wrong type or outside its list", async () => {
    const request = await checkoutRequest(sessionParams());
    const body = new URLSearchParams(request.body);
    body.set("expires_at", "abc");
    expect(validateStripeRequest({ ...request, body: body.toString() })).toEqual({
      ok: false,
      status: 400,
      error: { type: "invalid_request_error", message: "Invalid integer: abc", param: "expires_at" },
    });
    body.set("expires_at", String(seconds(NOW + 3_600_000)));
    body.set("mode", "purchase");
    expect(validateStripeRequest({ ...request, body: body.toString() })).toMatchObject({
      ok: false,
      error: { message: "Invalid mode: must be one of payment, setup, or subscription", param: "mode" },
    });
    expect(validateStripeRequest({ method: "GET", path: "/v1/checkout/sessions", query: "limit=ten" })).toMatchObject({
      ok: false,
      error: { message: "Invalid integer: ten", param: "limit" },
    });
  });

  it("lacks a required parameter", async () => {
    const request = await checkoutRequest(sessionParams({ success_url: undefined }));
    expect(validateStripeRequest(request)).toEqual({
      ok: false,
      status: 400,
      error: { type: "invalid_request_error", message: "Missing required param: success_url.", param: "success_url" },
    });
    const noCurrency = await checkoutRequest(
      sessionParams({
        line_items: [
          {
            quantity: 1,
            price_data: {
              unit_amount: 1000,
              product_data: { name: "Ticket" },
            } as Stripe.Checkout.SessionCreateParams.LineItem.PriceData,
          },
        ],
      }),
    );
    expect(validateStripeRequest(noCurrency)).toMatchObject({
      ok: false,
      error: {
        message: "Missing required param: line_items[0][price_data][currency].",
        param: "line_items[0][price_data][currency]",
      },
    });
    const noItems = await checkoutRequest(sessionParams({ line_items: undefined }));
    const verdict = validateStripeRequest(noItems);
    expect(verdict.ok && checkStripeRules(verdict.operation, verdict.params, NOW)).toMatchObject({
      ok: false,
      error: { message: "Missing required param: line_items.", param: "line_items" },
    });
  });

  it("ends its Checkout Session less than 30 minutes after creating it", async () => {
    const checker = stripeRequestChecker();
    const early = await checkoutRequest(sessionParams({ expires_at: seconds(NOW) + 29 * 60 + 59 }));
    expect(checker.check(early, NOW)).toEqual({
      ok: false,
      status: 400,
      error: {
        type: "invalid_request_error",
        message: "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        param: "expires_at",
      },
    });
    // Sent at NOW for a hold computed a second earlier, Stripe creates the session a second too late.
    expect(checker.check(await checkoutRequest(sessionParams()), NOW + 1000)).toMatchObject({
      ok: false,
      error: { param: "expires_at" },
    });
    expect(
      checker.check(await checkoutRequest(sessionParams({ expires_at: seconds(NOW) + 30 * 60 })), NOW),
    ).toMatchObject({ ok: true });
    const late = await checkoutRequest(sessionParams({ expires_at: seconds(NOW) + 24 * 60 * 60 + 1 }));
    expect(checker.check(late, NOW)).toMatchObject({
      ok: false,
      error: { message: "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation." },
    });
  });

  it("returns to a page that is not an absolute URL, or charges nothing", async () => {
    const checker = stripeRequestChecker();
    expect(checker.check(await checkoutRequest(sessionParams({ cancel_url: "/events" })), NOW)).toMatchObject({
      ok: false,
      error: { message: "Not a valid URL", param: "cancel_url", code: "url_invalid" },
    });
    const free = sessionParams({
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 0, product_data: { name: "Ticket" } } }],
    });
    expect(checker.check(await checkoutRequest(free), NOW)).toMatchObject({
      ok: false,
      error: { param: "line_items[0][price_data][unit_amount]" },
    });
    const [refund] = await sent(() => stripe.refunds.create({ payment_intent: "pi_test_1", amount: -5 }));
    expect(checker.check(refund!, NOW)).toMatchObject({
      ok: false,
      error: { message: "This value must be greater than or equal to 1.", param: "amount" },
    });
  });

  it("uses an idempotency key again with other parameters", async () => {
    const checker = stripeRequestChecker();
    const key = `hopewell-refund-${purchaseId}`;
    const [first] = await sent(() => stripe.refunds.create({ payment_intent: "pi_test_1" }, { idempotencyKey: key }));
    const [again] = await sent(() => stripe.refunds.create({ payment_intent: "pi_test_1" }, { idempotencyKey: key }));
    const [other] = await sent(() => stripe.refunds.create({ payment_intent: "pi_test_2" }, { idempotencyKey: key }));
    expect(checker.check(first!, NOW)).toMatchObject({ ok: true });
    expect(checker.check(again!, NOW)).toMatchObject({ ok: true });
    expect(checker.check(other!, NOW)).toEqual({
      ok: false,
      status: 400,
      error: {
        type: "idempotency_error",
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      },
    });
  });

  it("asks for an address Stripe's API does not have, or carries no secret key", () => {
    expect(validateStripeRequest({ method: "DELETE", path: "/v1/checkout/sessions/cs_test_1" })).toMatchObject({
      ok: false,
      status: 404,
      error: { message: expect.stringContaining("Unrecognized request URL (DELETE: /v1/checkout/sessions/cs_test_1)") },
    });
    expect(
      validateStripeRequest({
        method: "GET",
        path: "/v1/balance",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    ).toMatchObject({
      ok: false,
      status: 401,
      error: { message: expect.stringContaining("You did not provide an API key.") },
    });
  });
});
