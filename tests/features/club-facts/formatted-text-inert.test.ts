import { decodeHTML } from "entities";
import { DomUtils, parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

/**
 * Nothing a manager writes runs script on a member's page: the welcome, an FAQ answer and each
 * section of the location page, written with script, event handlers and javascript: and data:
 * links, are shown as the text they are on every page that shows them, signed out (the copy kept
 * in memory) and signed in, and in the managers' previews. The pages are read as a browser
 * reads them (parsed), not searched as text.
 */
withTestDatabase();
const app = withAppServer();

const DATA_LINK = "[the rules](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)";
const HOSTILE = [
  "<script>alert(1)</script>",
  "[x](javascript:alert(1))",
  "<img src=x onerror=alert(1)>",
  '<a href="#" onclick="alert(1)">',
  DATA_LINK,
];
const TEXT = HOSTILE.join("\n\n");

type Element = { name: string; attribs: Record<string, string>; children: Node[] };
type Node = Element | { type: string; data?: string; children?: Node[] };
const isElement = (node: Node): node is Element => "name" in node && "attribs" in node;

/** The text a person reads on the page: every text but scripts' and styles', entities read. */
function shownText(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (isElement(node)) return ["script", "style"].includes(node.name) ? " " : ` ${shownText(node.children)} `;
      return node.type === "text" ? decodeHTML(node.data ?? "") : "";
    })
    .join("");
}

/** What in the page could run script: an element, attribute or address a browser would act on. */
function whatCouldRun(html: string, nonce: string | undefined): string[] {
  const found: string[] = [];
  const document = parseDocument(html, { decodeEntities: true });
  for (const element of DomUtils.findAll(() => true, document.children) as unknown as Element[]) {
    // The page's own scripts carry the response's nonce, which the Content-Security-Policy requires.
    if (element.name === "script" && (nonce === undefined || element.attribs.nonce !== nonce))
      found.push(`<script ${JSON.stringify(element.attribs)}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name)) found.push(`${element.name} ${name}=${value}`);
      if (/^(href|src|action|formaction|xlink:href)$/i.test(name) && /^\s*(javascript|data|vbscript):/i.test(value))
        found.push(`${element.name} ${name}=${value}`);
    }
  }
  return found;
}

async function page(path: string, cookie?: string) {
  const response = await fetch(app().url + path, { headers: cookie ? { Cookie: cookie } : {} });
  return { html: await response.text(), policy: response.headers.get("Content-Security-Policy") ?? "" };
}

function expectInert({ html, policy }: { html: string; policy: string }, shownAtLeast: number, where: string) {
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(whatCouldRun(html, nonce), where).toEqual([]);
  const text = shownText(parseDocument(html, { decodeEntities: true }).children as Node[]);
  for (const hostile of HOSTILE)
    expect(text.split(hostile).length - 1, `${where}: ${hostile} shown as text`).toBeGreaterThanOrEqual(shownAtLeast);
}

/** The form's fields as a browser sends them (a text area's text with its entities read). */
async function fieldsOf(path: string, cookie: string) {
  const { html } = await page(path, cookie);
  return Object.fromEntries(Object.entries(formFieldsOf(html)).map(([name, value]) => [name, decodeHTML(value)]));
}

describe("a manager's formatted text", () => {
  it("is shown inert on the home page and the location page, signed out and signed in, and in the previews", async () => {
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");

    const welcome = { intent: "save", version: "0", text: TEXT };
    expectInert(await previewOf("/tools/club/welcome", welcome), 1, "the welcome's preview");
    expect(await (await postForm(app().url, "/tools/club/welcome", welcome, manager.cookie)).text()).toContain(
      "Saved: the welcome is now version 1.",
    );

    const faq = { ...(await fieldsOf("/tools/club/faq", manager.cookie)), "answer-0": TEXT, intent: "save" };
    expectInert(await previewOf("/tools/club/faq", faq), 1, "the FAQ's preview");
    expect(await (await postForm(app().url, "/tools/club/faq", faq, manager.cookie)).text()).toContain(
      "Saved: the FAQ is now version 1.",
    );

    const sections = { directions: TEXT, arrival: TEXT, venue: TEXT, notes: TEXT };
    const locations = { ...sections, intent: "save", version: "0" };
    expectInert(await previewOf("/tools/club/locations", locations), 4, "the location page's preview");
    expect(await (await postForm(app().url, "/tools/club/locations", locations, manager.cookie)).text()).toContain(
      "Saved: the location page is now version 1.",
    );
    expect((await currentFacts("faq")).content[0]!.answer).toBe(TEXT);

    for (const [who, cookie] of [
      ["signed out", undefined],
      ["signed in", player.cookie],
    ] as const) {
      // The welcome and the first FAQ answer.
      expectInert(await page("/", cookie), 2, `the home page, ${who}`);
      expectInert(await page("/locations", cookie), 4, `the location page, ${who}`);
    }

    async function previewOf(path: string, fields: Record<string, string>) {
      const response = await postForm(app().url, path, { ...fields, intent: "preview" }, manager.cookie);
      expect(response.status, path).toBe(200);
      return { html: await response.text(), policy: response.headers.get("Content-Security-Policy") ?? "" };
    }
  });

  it("would be caught running: the same checks find script written into a page", () => {
    const html =
      '<p><script>alert(1)</script><img src=x onerror="alert(1)"><a href="javascript:alert(1)">x</a><a href=" data:text/html,x">d</a></p>';
    expect(whatCouldRun(html, "n0nce")).toEqual([
      "<script {}>",
      "img onerror=alert(1)",
      "a href=javascript:alert(1)",
      "a href= data:text/html,x",
    ]);
  });
});
