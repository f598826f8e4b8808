import { createContext, useContext } from "react";

/** The HTML the loaders held for the page's render (web/document-html.server.ts), given by entry.server.tsx. */
export const DocumentHtmlContext = createContext<Readonly<Record<string, string>>>({});

type Props = {
  /** The element's id, unique in the page, as given to `htmlOnce`. */
  id: string;
  /** From `htmlOnce`: the HTML, or null when the page in the browser already shows it. */
  html: string | null;
  className?: string;
};

/**
 * Server-made HTML (only the safe subset of formatted text: formattedTextHtml) that a page's
 * first load carries in its HTML only. On the server it comes from the render's context; in the
 * browser, taking over that page, from the element the page already holds (React neither
 * compares nor replaces an element's inner HTML as it takes the page over); after a navigation,
 * from the loader's data.
 */
export function DocumentHtml({ id, html, className }: Props) {
  const held = useContext(DocumentHtmlContext)[id];
  const shown = html ?? held ?? shownInPage(id);
  return <div id={id} className={className} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: shown }} />;
}

/** What the page in the browser shows for `id`: read while the page is taken over, before React owns it. */
function shownInPage(id: string): string {
  if (typeof document === "undefined") return "";
  return document.getElementById(id)?.innerHTML ?? "";
}
