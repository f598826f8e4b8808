import { parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { formattedTextHtml } from "~/lib/formatted-text.server";

type Node = { type: string; name?: string; attribs?: Record<string, string>; children?: Node[]; data?: string };

/** Every element of the HTML, as a browser's parser would read it. */
function elements(html: string): { name: string; attribs: Record<string, string> }[] {
  const found: { name: string; attribs: Record<string, string> }[] = [];
  const walk = (node: Node) => {
    if (node.name) found.push({ name: node.name, attribs: node.attribs ?? {} });
    for (const child of node.children ?? []) walk(child);
  };
  walk(parseDocument(html) as unknown as Node);
  return found;
}

describe("formatted text", () => {
  it("formats paragraphs, emphasis, links and lists", () => {
    const html = formattedTextHtml(
      "Welcome to *Hopewell*.\n\nRead **the rules** and [the map](https://example.org/map) first.\n\n- bring a lantern\n- bring boots\n\n1. sign up\n2. pay",
    );
    expect(elements(html).map((e) => e.name)).toEqual([
      "p",
      "em",
      "p",
      "strong",
      "a",
      "ul",
      "li",
      "li",
      "ol",
      "li",
      "li",
    ]);
    expect(html).toContain('<a href="https://example.org/map" rel="nofollow noopener noreferrer">the map</a>');
  });

  it("links to a page of the site without rel, and by mailto", () => {
    expect(formattedTextHtml("[Events](/events) or [write](mailto:club@example.org)")).toBe(
      '<p><a href="/events">Events</a> or <a href="mailto:club@example.org">write</a></p>\n',
    );
  });

  it.each([
    ["<script>alert(1)</script>"],
    ['<img src=x onerror="alert(1)">'],
    ["[x](javascript:alert(1))"],
    ["[x](JaVaScRiPt:alert(1))"],
    ["[x](  javascript:alert(1))"],
    ["[x](java&#x73;cript:alert(1))"],
    ["[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
    ["[x](vbscript:msgbox)"],
    ["[x](//evil.example/steal)"],
    ['[x](https://example.org" onclick="alert(1))'],
    ['<a href="javascript:alert(1)">x</a>'],
    ["![x](https://example.org/pixel.png)"],
    ["<iframe src=https://example.org></iframe>"],
    ['<div style="position:fixed">x</div>'],
  ])("leaves %s inert", (source) => {
    const found = elements(formattedTextHtml(source));
    for (const element of found) {
      expect(["p", "em", "strong", "a", "ul", "ol", "li"]).toContain(element.name);
      for (const [name, value] of Object.entries(element.attribs)) {
        expect(["href", "rel"]).toContain(name);
        if (name === "href") expect(value).toMatch(/^(https?:\/\/[^\s"]+|mailto:|\/[^/])/);
      }
    }
  });

  it("shows markup it does not read as the text it is", () => {
    expect(formattedTextHtml("# Not a heading\n\n<b>bold?</b>")).toBe(
      "<p># Not a heading</p>\n<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n",
    );
  });
});
