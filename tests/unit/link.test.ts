import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Link as RouterLink, StaticRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Link } from "~/components/Link";

const PAGE = "/events/manage?x=1";
const render = (element: ReturnType<typeof createElement>) =>
  renderToStaticMarkup(createElement(StaticRouter, { location: PAGE }, element));
const hrefOf = (markup: string) => /href="([^"]*)"/.exec(markup)?.[1];

describe("the site's Link", () => {
  it("is a plain anchor of the site's own, followed in the app through data-in-app", () => {
    expect(
      render(createElement(Link, { to: "/locations", className: "btn", "aria-current": "page" }, "Venue details")),
    ).toBe('<a class="btn" aria-current="page" href="/locations" data-in-app="">Venue details</a>');
    expect(render(createElement(Link, { to: "?event=3", replace: true, preventScrollReset: true }, "March"))).toBe(
      '<a href="/events/manage?event=3" data-in-app="" data-replace="" data-keep-scroll="">March</a>',
    );
  });

  // The addresses the site's links use, written where React Router's own link would send them.
  it.each([
    "/locations",
    "/auth?mode=signup&redirectTo=%2Fevents",
    "/letters#reply",
    "?event=3",
    "?",
    "#reply",
    "?answer=7#entry-7",
    "/",
  ])("sends %s where React Router's link does", (to) => {
    expect(hrefOf(render(createElement(Link, { to }, "x")))).toBe(
      hrefOf(render(createElement(RouterLink, { to }, "x"))),
    );
  });
});
