import type { ClientLoaderFunctionArgs, UIMatch } from "react-router";

/**
 * A page the server alone draws. Its route's `handle` names the page's own small script, and
 * the root sends that in place of React Router's scripts, so the page loads no React at all:
 * a first visit to the sign-in page fetches a few kilobytes instead of the whole app
 * (docs/decisions/0028-sign-in-page-without-react.md). The script is built by Vite as a bundle
 * of its own, imported with `?worker&url` for its address.
 */
export type PageScriptHandle = { pageScript: string };

/** The script of the deepest matched route that has one, if any. */
export function pageScriptOf(matches: readonly UIMatch[]): string | undefined {
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]!.handle as Partial<PageScriptHandle> | undefined;
    if (typeof handle?.pageScript === "string") return handle.pageScript;
  }
  return undefined;
}

/**
 * Such a route's `clientLoader`: a navigation inside the app to the page (a link in the header,
 * a redirect to sign in) becomes a whole page load, since the page works only as the server
 * draws it. The promise never settles: the browser is leaving.
 */
export function loadAsDocument({ request }: ClientLoaderFunctionArgs): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}
