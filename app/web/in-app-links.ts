import { useEffect } from "react";
import { useNavigate } from "react-router";

/**
 * Follows the site's links (components/Link.tsx, and the header's, marked `data-in-app`) inside
 * the app: one listener on the document instead of a handler on every link. A click the page handled itself
 * (preventDefault), a click with a modifier or another button (a new tab or window), a link with
 * a target or a download, and a fragment of the page being read are left to the browser, as
 * React Router's own Link leaves them.
 */
export function useInAppLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    function follow(event: MouseEvent) {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.altKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      const anchor = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[data-in-app]") : null;
      if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
      if (samePage && url.hash !== "") return;
      event.preventDefault();
      void navigate(url.pathname + url.search + url.hash, {
        // Following a link to the page already shown replaces its entry, as React Router's Link does.
        replace: anchor.hasAttribute("data-replace") || (samePage && window.location.hash === ""),
        preventScrollReset: anchor.hasAttribute("data-keep-scroll"),
      });
    }
    document.addEventListener("click", follow);
    return () => document.removeEventListener("click", follow);
  }, [navigate]);
}
