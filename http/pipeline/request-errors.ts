import type http from "node:http";
import { escapeHtml } from "~/platform/html.server";
import { logger } from "~/platform/logger.server";

/** A short answer the server writes itself, without the app. */
export type ErrorPage = { status: number; title: string; explanation: string; headers?: Record<string, string> };

export const UNREADABLE_ADDRESS: ErrorPage = {
  status: 400,
  title: "Bad Request",
  explanation:
    "The address of this request cannot be read: its path or its host is malformed. Check the link you followed, or start again from the home page.",
};

/** A form post through a reverse proxy the site does not trust yet (request-url.ts): the set-up's fault, so its fix is named. */
export const PROXY_NOT_TRUSTED: ErrorPage = {
  status: 400,
  title: "Form Not Sent",
  explanation:
    "This site runs behind a reverse proxy but has not been told to trust it, so it cannot tell that this form came from its own page. Nothing was saved. If you run the site: set TRUST_PROXY=true in its settings (.env) and restart it.",
};

export function unansweredMethod(method: string): ErrorPage {
  return {
    status: 405,
    title: "Method Not Allowed",
    explanation: `This site does not answer ${method} requests.`,
    headers: { Allow: "GET, HEAD, POST" },
  };
}

export const REQUEST_FAILED: ErrorPage = {
  status: 500,
  title: "Something Went Wrong",
  explanation: "Something went wrong on our side while answering. Please try again.",
};

/** The page in the site's dress (the build's stylesheet, when known), like the site's own error pages. */
export function errorPageHtml(page: ErrorPage, stylesheet: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Hopewell</title>
${stylesheet ? `<link rel="stylesheet" href="${stylesheet}">\n` : ""}<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<main id="main" class="flex-1">
<div class="mx-auto max-w-2xl px-4 py-20 text-center">
<p class="font-display text-6xl text-rust" aria-hidden="true">${page.status}</p>
<h1 class="mt-4 text-3xl">${escapeHtml(page.title)}</h1>
<hr class="divider my-6">
<p class="text-dust">${escapeHtml(page.explanation)}</p>
<p class="mt-8"><a href="/" class="btn btn-secondary">Back to town</a></p>
</div>
</main>
</body>
</html>
`;
}

export type ErrorPageOptions = {
  stylesheet?: string;
  /** The page's Content-Security-Policy (it has no inline scripts or styles). */
  contentSecurityPolicy: string;
};

/** Answers `req` with `page`: HTML for a browser, plain text for anything else. */
export function sendErrorPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  page: ErrorPage,
  options: ErrorPageOptions,
): void {
  const wantsHtml = (req.headers.accept ?? "").includes("text/html");
  const body = wantsHtml ? errorPageHtml(page, options.stylesheet) : `${page.title}. ${page.explanation}\n`;
  // A body the request still carries is read and dropped, so the connection can take the next request.
  req.resume();
  res.writeHead(page.status, {
    ...page.headers,
    "Content-Type": wantsHtml ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Content-Security-Policy": options.contentSecurityPolicy,
    "Cache-Control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Ends a request whose handling threw, so the failure stays with that request and never
 * reaches the process (an unhandled rejection stops Node): a 500 page while nothing was
 * sent yet, else the connection is cut, as an answer half sent cannot be taken back and a
 * cut tells the client it is incomplete. Never throws.
 */
export function requestFailed(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  error: unknown,
  options: ErrorPageOptions,
): void {
  try {
    logger.error({ err: error, method: req.method }, "answering a request failed");
    // Already answered in full: nothing is owed to the client.
    if (res.writableEnded) return;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Headers meant for the app's answer (its policy with a nonce, a length) are not this page's.
    for (const name of res.getHeaderNames()) if (/^content-|^etag$|^vary$/i.test(name)) res.removeHeader(name);
    sendErrorPage(req, res, REQUEST_FAILED, options);
  } catch {
    res.destroy();
  }
}
