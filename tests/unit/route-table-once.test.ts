import fs from "node:fs";
import { createElement } from "react";
import { createStaticHandler, createStaticRouter, type RouteObject, type StaticHandlerContext } from "react-router";
import { describe, expect, it } from "vitest";

/**
 * React Router rebuilt the whole route table's objects for every page it rendered; the patch in
 * patches/ makes them once per build (docs/decisions/0025-route-table-once.md). These checks
 * fail when an install did not apply it, or when a React Router upgrade needs it made again.
 */
describe("React Router's route table, made once", () => {
  it("is patched for the React Router version installed", () => {
    const installed = (JSON.parse(fs.readFileSync("node_modules/react-router/package.json", "utf8")) as { version: string }).version;
    expect(fs.readdirSync("patches")).toContain(`react-router+${installed}.patch`);
  });

  it("converts the same routes to data routes once, however many pages render them", () => {
    const routes: RouteObject[] = [{ id: "root", path: "/", element: createElement("p", null, "home") }];
    const context = { basename: "/", location: { pathname: "/", search: "", hash: "", state: null, key: "default" }, matches: [], loaderData: {}, actionData: null, errors: null, statusCode: 200, loaderHeaders: {}, actionHeaders: {} } as unknown as StaticHandlerContext;
    const first = createStaticRouter(routes, context);
    const second = createStaticRouter(routes, context);
    expect(second.routes).toBe(first.routes);
    // Other routes still get routes of their own.
    expect(createStaticRouter([{ ...routes[0]! }], context).routes).not.toBe(first.routes);
  });

  it("matches each address against the route table once, and hands every request its own copy", async () => {
    const chunk = fs.readdirSync("node_modules/react-router/dist/development").find((file) => /^chunk-.*\.mjs$/.test(file) && fs.readFileSync(`node_modules/react-router/dist/development/${file}`, "utf8").includes("function matchRoutesImpl("));
    expect(fs.readFileSync(`node_modules/react-router/dist/development/${chunk}`, "utf8")).toContain("matchesOfBranches");

    const routes: RouteObject[] = [
      {
        id: "root",
        path: "/",
        children: [
          { id: "home", index: true },
          { id: "sheet", path: "tools/event-day/:eventId" },
          { id: "files", path: "files/*" },
        ],
      },
    ];
    const handler = createStaticHandler(routes);
    const matched = async (path: string) => {
      const context = (await handler.query(new Request(`http://localhost${path}`))) as StaticHandlerContext;
      return context.matches;
    };
    const summary = (matches: StaticHandlerContext["matches"]) => matches.map((match) => [match.route.id, match.pathname, { ...match.params }]);

    const first = await matched("/tools/event-day/7");
    expect(summary(first)).toEqual([
      ["root", "/", { eventId: "7" }],
      ["sheet", "/tools/event-day/7", { eventId: "7" }],
    ]);
    // Later requests for the same address: the same answer, each in objects of its own, so what
    // one request does to its matches never reaches the next.
    for (const earlier of [first, await matched("/tools/event-day/7")]) {
      (earlier[1]!.params as Record<string, string>).eventId = "changed by an earlier request";
      const later = await matched("/tools/event-day/7");
      expect(later[1]!.params.eventId).toBe("7");
      expect(later[0]).not.toBe(earlier[0]);
      // One params object for a whole match, as React Router makes it.
      expect(later[0]!.params).toBe(later[1]!.params);
    }
    // Other addresses get their own answers.
    expect(summary(await matched("/tools/event-day/8"))[1]).toEqual(["sheet", "/tools/event-day/8", { eventId: "8" }]);
    expect(summary(await matched("/files/a/b.pdf"))[1]).toEqual(["files", "/files/a/b.pdf", { "*": "a/b.pdf" }]);
    expect(summary(await matched("/"))).toEqual([
      ["root", "/", {}],
      ["home", "/", {}],
    ]);
    // And an address that matches nothing stays a 404, asked twice.
    for (let time = 0; time < 2; time++) expect(((await handler.query(new Request("http://localhost/nowhere"))) as StaticHandlerContext).statusCode).toBe(404);
  });
});
