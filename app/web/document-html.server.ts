import { createContext, type RouterContextProvider } from "react-router";
import { isDataRequest } from "./data-request";

/**
 * HTML made on the server that a page's first load carries once. A loader's data is sent twice
 * with the document: rendered into the page, and again in the page's script for the browser to
 * take over. For long HTML of the club's words (the FAQ's answers, the welcome story) that doubled
 * the page and its cost to make; held here instead, it is rendered into the page only, and the
 * browser's `DocumentHtml` keeps what the page already shows (components/DocumentHtml.tsx).
 */
export const documentHtmlContext = createContext<Readonly<Record<string, string>>>({});

/**
 * `html` as a loader returns it for `DocumentHtml` with this `id`: on a data request the HTML
 * itself, since no page comes with it; on the first load null, with the HTML held for the render.
 */
export function htmlOnce(
  context: Readonly<RouterContextProvider>,
  request: Request,
  id: string,
  html: string,
): string | null {
  if (isDataRequest(request)) return html;
  context.set(documentHtmlContext, { ...context.get(documentHtmlContext), [id]: html });
  return null;
}
