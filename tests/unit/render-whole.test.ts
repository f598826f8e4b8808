import { createElement as h, Fragment, Suspense, use, useId, type ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderWhole } from "~/web/render-whole.server";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

function Waits({ promise }: { promise: Promise<string> }) {
  return h("p", { id: useId() }, "Arrived: ", use(promise), "!");
}

/** A document with what a page holds: suspended data, joined text, escaping, long and non-ASCII text, an inline script. */
function page(): ReactNode {
  const long = "Dear friend — at Taber Creek the well water came up warm and red. 🤠 ".repeat(120);
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, "Letters · Hopewell")),
    h(
      "body",
      null,
      h("h1", { className: "text-5xl", title: `"Quoted" <tag> & more` }, "Café ", 1877, " ", "✓"),
      h("p", null, long),
      h(
        Suspense,
        { fallback: h("p", null, "Loading…") },
        h(Waits, { promise: later("the post", 5) }),
        h(Waits, { promise: later("the stage", 15) }),
      ),
      h(Fragment, null, "a", "b", h("br"), "c"),
      h("script", { nonce: "n0nce", dangerouslySetInnerHTML: { __html: "window.x = 1;" } }),
    ),
  );
}

/** React's renderer to a web stream, read after everything has arrived: the same page by React's other way of writing it. */
async function withWebStream(element: ReactNode): Promise<Buffer> {
  const stream = await renderToReadableStream(element, { nonce: "n0nce" });
  await stream.allReady;
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe("rendering a whole page", () => {
  it("writes the same bytes as React's renderer to a web stream", async () => {
    const ours = await renderWhole(page(), { nonce: "n0nce", timeoutMs: 5_000 });
    const node = await withWebStream(page());
    expect(Buffer.from(ours).toString("utf8")).toContain("Arrived: <!-- -->the stage<!-- -->!");
    expect(Buffer.from(ours).toString("utf8")).toContain("🤠");
    expect(Buffer.from(ours).equals(node)).toBe(true);
  });

  it("rejects when the outermost part cannot render", async () => {
    const Broken = () => {
      throw new Error("no page");
    };
    const errors: boolean[] = [];
    await expect(
      renderWhole(h(Broken), { timeoutMs: 5_000, onError: (_error, shellRendered) => errors.push(shellRendered) }),
    ).rejects.toThrow("no page");
    expect(errors).toEqual([false]);
  });

  it("reports a failed part inside a boundary and still answers, with the boundary left to the browser", async () => {
    const Fails = () => {
      throw new Error("part failed");
    };
    const errors: string[] = [];
    const html = await renderWhole(
      h("main", null, h("h1", null, "Events"), h(Suspense, { fallback: h("p", null, "Loading…") }, h(Fails))),
      {
        timeoutMs: 5_000,
        onError: (error) => errors.push((error as Error).message),
      },
    );
    expect(errors).toEqual(["part failed"]);
    expect(Buffer.from(html).toString()).toContain("<h1>Events</h1>");
    expect(Buffer.from(html).toString()).toContain("Loading…");
  });

  it("gives up waiting after its timeout and answers with what it has", async () => {
    const never = new Promise<string>(() => {});
    const started = Date.now();
    const errors: unknown[] = [];
    const html = await renderWhole(
      h(
        "main",
        null,
        h("h1", null, "Letters"),
        h(Suspense, { fallback: h("p", null, "Still coming") }, h(Waits, { promise: never })),
      ),
      {
        timeoutMs: 50,
        onError: (error) => errors.push(error),
      },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Buffer.from(html).toString()).toContain("Still coming");
    expect(errors).toHaveLength(1);
  });
});
