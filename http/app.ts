// The request pipeline: how each request is answered, from the socket to React Router and back
// (security headers, body limits, health, static files, page turns, the anonymous-page cache).
// Start-up, which opens the database and serves this, is start.ts.
import crypto from "node:crypto";
import http from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import compression from "compression";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import * as build from "virtual:react-router/server-build";
import { requestInfoContext, type RequestInfo } from "~/web/request-context";
import { SIGNED_BY_SENDER } from "~/web/middleware.server";
import { CLIENT_ADDRESS_HEADER } from "~/identity/auth.server";
import type { Config } from "~/platform/config.server";
import { followDatabaseChanges, onWritesTo } from "~/platform/db/changes.server";
import { databaseHandle } from "~/platform/db/client.server";
import { logger } from "~/platform/logger.server";
import { outsideOrigins } from "~/server-parts.server";
import { logAccess } from "./pipeline/access-log";
import { bodyForApp, closeUnreadBody, limitRequestBody } from "./pipeline/body-limit";
import { createAnonymousPageCache } from "./pipeline/anonymous-cache";
import { serveHealth } from "./pipeline/health";
import {
  errorPageHtml,
  PROXY_NOT_TRUSTED,
  REQUEST_FAILED,
  requestFailed,
  sendErrorPage,
  unansweredMethod,
  UNREADABLE_ADDRESS,
} from "./pipeline/request-errors";
import {
  isSecure,
  isUnansweredMethod,
  postThroughUntrustedProxy,
  requestOrigin,
  requestPath,
} from "./pipeline/request-url";
import { createPageTurns, PAGE_LEASE_MS, PAGE_SLOTS } from "./pipeline/page-turns";
import { keepPrivate } from "./pipeline/private-responses";
import { contentSecurityPolicy, setBaseSecurityHeaders } from "./pipeline/security-headers";
import { guardAgainstSlowClients } from "./pipeline/slow-clients";
import { builtAssets } from "./pipeline/static-files";
import { sourceApp, type Development } from "./dev-source";

export type { Development };
/**
 * The client's address. Behind a reverse proxy (TRUST_PROXY) it is the last
 * address in X-Forwarded-For, the one our proxy appended; earlier entries are
 * whatever the client chose to send and are never trusted.
 */
export function clientAddress(req: http.IncomingMessage, cfg: Config): string {
  const fromSocket = req.socket.remoteAddress ?? "unknown";
  if (!cfg.trustProxy) return fromSocket;
  const forwarded = req.headers["x-forwarded-for"];
  const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
  return last || fromSocket;
}

/** What the fetch adapter answers when the app itself threw: the server's own 500 page, in the site's dress. */
function errorResponse(error: unknown): Response {
  logger.error({ err: error }, "unhandled request error");
  return new Response(errorPageHtml(REQUEST_FAILED, siteStylesheet()), {
    status: REQUEST_FAILED.status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The built stylesheet's address (root's links), for pages the server writes itself. */
function siteStylesheet(): string | undefined {
  const links = build.routes.root?.module.links?.() ?? [];
  const sheet = links.find((link) => "rel" in link && link.rel === "stylesheet");
  return sheet && "href" in sheet ? sheet.href : undefined;
}

type Next = () => void;
type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: Next) => void;

export type AppServerOptions = {
  development?: Development;
  /** The browsers' files: the build's (build/client) by default; tests run without a build serve public/. */
  assetsDir?: string;
};

export function createAppServer(cfg: Config, options: AppServerOptions = {}): http.Server {
  const mode = process.env.NODE_ENV ?? "production";
  let handleRequest: ReturnType<typeof createRequestHandler>;
  if (options.development) {
    // React Router calls a function for the app on every request and derives its routes
    // again: right for the source under development, which an edit changes. The signed-out
    // pages kept in memory are dropped when it does.
    const loadApp = sourceApp(options.development.vite);
    let currentApp: ServerBuild | undefined;
    handleRequest = createRequestHandler(async () => {
      const next = await loadApp();
      if (currentApp && next !== currentApp) anonymousPages.clear();
      currentApp = next;
      return next;
    }, mode);
  } else {
    // The bundled app, handed over as it is, so its routes are derived once (doing it on every
    // request cost a signed-in page two thirds of its throughput).
    handleRequest = createRequestHandler(build as ServerBuild, mode);
  }
  const { frameSources, scriptSources, formTargets } = outsideOrigins(cfg);
  const stylesheet = siteStylesheet();
  // The refusal page of an oversized body has no inline scripts or styles.
  const refusalPolicies = new Map(
    [true, false].map((secure) => [
      secure,
      contentSecurityPolicy({ inline: { styleHashes: [] }, frameSources: ["'none'"], secure }),
    ]),
  );
  const staticFiles: Middleware = options.development
    ? options.development.vite.middlewares
    : builtAssets(options.assetsDir ?? "build/client");
  const compress = compression();
  const anonymousPages = createAnonymousPageCache({
    async render(pathname) {
      const request = new Request(new URL(pathname, cfg.appUrl ?? "http://localhost"), {
        headers: { Accept: "text/html" },
      });
      const context = new RouterContextProvider();
      // No nonce: the shared copy keeps no scripts, and any inline style is allowed by its hash.
      context.set(requestInfoContext, { nonce: "", clientAddress: "anonymous-page-cache" });
      const response = await handleRequest(request, context);
      return { status: response.status, headers: response.headers, html: await response.text() };
    },
    policy: (styleHashes, secure) =>
      contentSecurityPolicy({ inline: { styleHashes }, frameSources, scriptSources, formTargets, secure }),
  });

  // The signed-out pages show the club's own facts (the FAQ): a manager's save, on this instance
  // or another, drops the copies so the next visitor gets the new text.
  const stopDroppingPages = onWritesTo(["club_fact_versions"], () => anonymousPages.clear());

  const inTurn = createPageTurns({
    slots: cfg.databaseUrl ? PAGE_SLOTS.postgres : PAGE_SLOTS.embedded,
    leaseMs: PAGE_LEASE_MS,
  });

  // What the app learnt about each request (its route pattern), for the access log.
  const requestInfos = new WeakMap<http.IncomingMessage, RequestInfo>();

  /**
   * Runs one step of answering `req`. Whatever it throws, or the promise it returns rejects
   * with, ends that request alone (requestFailed): Node would otherwise stop the process.
   */
  function guarded(req: http.IncomingMessage, res: http.ServerResponse, secure: boolean, step: () => unknown): void {
    const failed = (error: unknown) =>
      requestFailed(req, res, error, { stylesheet, contentSecurityPolicy: refusalPolicies.get(secure)! });
    try {
      const result = step();
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  function handleApp(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    secure: boolean,
    expectsContinue: boolean,
  ): void {
    const origin = requestOrigin(req, cfg);
    const info: RequestInfo = {
      nonce: crypto.randomBytes(16).toString("base64"),
      clientAddress: clientAddress(req, cfg),
    };
    requestInfos.set(req, info);
    res.setHeader(
      "Content-Security-Policy",
      contentSecurityPolicy({ inline: { nonce: info.nonce }, frameSources, scriptSources, formTargets, secure }),
    );
    const refusal = { stylesheet, contentSecurityPolicy: refusalPolicies.get(secure)! };
    // The adapter writes the answer itself and ends the request on its own failures (onError),
    // so nothing it does reaches the caller's guard.
    const listener = createRequestListener(
      async (request: Request) => {
        const context = new RouterContextProvider();
        context.set(requestInfoContext, info);
        // Replaces whatever the client sent under this name: only our own address counts.
        request.headers.set(CLIENT_ADDRESS_HEADER, info.clientAddress);
        // A post another service sends for a member proves itself (SIGNED_BY_SENDER): a mail program's
        // one-click unsubscribe may come with its own site's Origin, which React Router's own check of
        // a page's posts would refuse before the route could check the link's token.
        if (request.method === "POST" && SIGNED_BY_SENDER.has(new URL(request.url).pathname))
          request.headers.delete("Origin");
        // The body is read only as the app asks for it (http/pipeline/body-limit.ts).
        const body = bodyForApp(req, request, {
          ...refusal,
          expectsContinue,
          writeContinue: () => res.writeContinue(),
        });
        try {
          // Requests take turns (http/pipeline/page-turns.ts); one still receiving an upload, or waiting on
          // password hashing or another service, gives up its turn after the lease.
          const response = await inTurn(() =>
            handleRequest(body.request, context).then((response) => keepPrivate(body.request, response)),
          );
          return await body.answer(response);
        } finally {
          closeUnreadBody(req, res);
        }
      },
      { onError: errorResponse, ...origin },
    );
    listener(req, res);
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, secure: boolean, expectsContinue: boolean) {
    logAccess(req, res, () => requestInfos.get(req)?.route);
    setBaseSecurityHeaders(res, secure);
    // Before anything reads the body: one whose length is over its address's limit is refused.
    limitRequestBody(req, res, { stylesheet, contentSecurityPolicy: refusalPolicies.get(secure)! }, () =>
      route(req, res, secure, expectsContinue),
    );
  }

  function route(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    secure: boolean,
    expectsContinue: boolean,
  ): Promise<unknown> | void {
    // What the app's fetch adapter cannot make into a Request is refused here, before it would
    // throw; and for every address alike, so a cached page or a file is no exception.
    const page = { stylesheet, contentSecurityPolicy: refusalPolicies.get(secure)! };
    if (isUnansweredMethod(req.method))
      return sendErrorPage(req, res, unansweredMethod(req.method!.toUpperCase()), page);
    if (postThroughUntrustedProxy(req, cfg)) {
      // At info, as every refusal of a client's request: warnings and errors are the site's own faults.
      logger.info(
        { origin: req.headers.origin },
        "form post refused: it came through a reverse proxy (X-Forwarded-Proto) but TRUST_PROXY is not set, so the site cannot tell its public origin. Set TRUST_PROXY=true (and APP_URL to the public https address) in the site's settings and restart",
      );
      return sendErrorPage(req, res, PROXY_NOT_TRUSTED, page);
    }
    const path = requestPath(req.url, requestOrigin(req, cfg));
    if (path === undefined) return sendErrorPage(req, res, UNREADABLE_ADDRESS, page);
    // The adapter puts the target after the origin: an absolute-form target (of this same origin) goes in as its path.
    req.url = path;
    // Each middleware's `next` may be called after its caller returned: each step is guarded.
    const app = () => guarded(req, res, secure, () => handleApp(req, res, secure, expectsContinue));
    if (anonymousPages.applies(req)) {
      // Served before compression: the cache holds each page already compressed.
      return anonymousPages
        .serve(req, res, secure)
        .then((served) => served || compress(req as never, res as never, app));
    }
    compress(req as never, res as never, () =>
      guarded(req, res, secure, () => {
        if (req.url === "/healthz") return serveHealth(res);
        staticFiles(req, res, app);
      }),
    );
  }

  const server = options.development?.server ?? http.createServer();
  // Header and body deadlines, idle keep-alive, and a cap on one address's connections.
  guardAgainstSlowClients(server, cfg);
  // One request's failure, whatever and wherever, ends that request alone.
  const answer = (req: http.IncomingMessage, res: http.ServerResponse, expectsContinue: boolean) => {
    const secure = isSecure(req, cfg);
    guarded(req, res, secure, () => handle(req, res, secure, expectsContinue));
  };
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => answer(req, res, false));
  // A client that asks before sending a body ("Expect: 100-continue") hears of the limit, or of
  // any other refusal, before it sends: it is told to go on only when the app reads the body.
  server.on("checkContinue", (req, res) => answer(req, res, true));
  // Lets the server keep who is signed in, and other reads most pages make, in memory (changes.server).
  const changes = followDatabaseChanges(databaseHandle());
  server.on("close", () => {
    stopDroppingPages();
    void changes.stop();
  });
  return server;
}
