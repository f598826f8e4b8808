import { decodeHTML } from "entities";

/**
 * Pages as a person reads them. React writes some characters as entities (`&#x27;`, `&quot;`,
 * `&amp;`...) and puts `<!-- -->` between the parts of one text; tests match what is read.
 */

/** The page with its entities decoded and React's text markers gone; tags stay. */
export function readable(html: string): string {
  return decodeHTML(html.replaceAll("<!-- -->", ""));
}

/** The page's text alone: no scripts or tags, entities decoded, spaces run together. */
export function visibleText(html: string): string {
  const markup = html.replaceAll("<!-- -->", "").replace(/<script[\s\S]*?<\/script>/g, "");
  return decodeHTML(markup.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
}

/** Those of `texts` found on `html`, in the order they appear there: equal to `texts` when all are there in that order. */
export function inPageOrder(html: string, texts: readonly string[]): string[] {
  return texts
    .map((text) => ({ text, at: html.indexOf(text) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ text }) => text);
}
