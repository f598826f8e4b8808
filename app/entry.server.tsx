import { isRouteErrorResponse, ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { NonceContext } from "~/components/nonce";
import { DocumentHtmlContext } from "~/components/DocumentHtml";
import { documentHtmlContext } from "~/web/document-html.server";
import { requestInfoContext } from "~/web/request-context";
import { loggablePath, logger } from "~/platform/logger.server";
import { renderWhole } from "~/web/render-whole.server";
import { isCrossSitePost } from "~/web/cross-site.server";

export const streamTimeout = 5_000;

/** The whole document, rendered once every loader has finished, answered in one piece. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestInfoContext);
  const html = await renderWhole(
    <NonceContext.Provider value={nonce}>
      <DocumentHtmlContext.Provider value={loadContext.get(documentHtmlContext)}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
      </DocumentHtmlContext.Provider>
    </NonceContext.Provider>,
    {
      nonce: nonce || undefined,
      timeoutMs: streamTimeout + 1000,
      onError(error, shellRendered) {
        responseStatusCode = 500;
        // Errors inside the shell reject and reach handleError, which logs them; these are the rest.
        if (shellRendered) logger.error({ err: error }, "render failed");
      },
    },
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // React Router refuses a cross-site form post itself (400, before any action runs); that is an
  // attack turned away, not a fault, so at info beside its request line.
  if (isCrossSitePost(request)) {
    logger.info(
      { url: loggablePath(new URL(request.url).pathname), origin: request.headers.get("Origin") },
      "cross-site post refused",
    );
    return;
  }
  // A request the client got wrong (a method a page does not answer: 405; no such page: 404) is
  // the client's, not a fault: the access log already has it, at info, with its status.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logger.error({ err: error, url: loggablePath(new URL(request.url).pathname) }, "request failed");
}
