import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { NonceContext } from "~/components/nonce";
import { requestInfoContext } from "~/web/request-context";
import { loggablePath, logger } from "~/platform/logger.server";

export const streamTimeout = 5_000;

/**
 * Renders the whole document, then answers with it in one piece. Loaders have all finished
 * before rendering starts (no page defers data), so streaming the shell earlier gains
 * nothing, while passing React's many small chunks through Node and web streams cost
 * measurably more than one buffer. One buffer also gives the response a Content-Length.
 */
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
    const chunks: Uint8Array[] = [];
    const collector = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          clearTimeout(timeout);
          pipe(collector);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell reject and reach handleError, which logs them; these are the rest.
          if (shellRendered) logger.error({ err: error }, "render failed");
        },
      },
    );
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // React Router refuses a cross-site form post itself; that is an attack turned away, not a fault.
  if (error instanceof Error && error.message.includes("does not match `origin` header")) {
    logger.warn({ url: loggablePath(new URL(request.url).pathname), origin: request.headers.get("Origin") }, "cross-site post refused");
    return;
  }
  logger.error({ err: error, url: loggablePath(new URL(request.url).pathname) }, "request failed");
}
