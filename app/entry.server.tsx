import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { NonceContext } from "~/components/nonce";
import { requestInfoContext } from "~/lib/request-context";
import { logger } from "~/server/logger.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestInfoContext);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and SPA-mode builds get the whole document at once; browsers get the shell early.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while streaming after the shell are logged here; earlier ones reach handleError.
          if (shellRendered) logger.error({ err: error }, "render failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // React Router refuses a cross-site form post itself; that is an attack turned away, not a fault.
  if (error instanceof Error && error.message.includes("does not match `origin` header")) {
    logger.warn({ url: new URL(request.url).pathname, origin: request.headers.get("Origin") }, "cross-site post refused");
    return;
  }
  logger.error({ err: error, url: new URL(request.url).pathname }, "request failed");
}
