import fs from "node:fs";
import { Readable } from "node:stream";
import { redirect } from "react-router";
import rulebookHtml from "~/content/rulebook.html?raw";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";
import { openFile } from "~/platform/storage/storage.server";

/**
 * The document the rulebook viewer frames (/rulebook/document): the PDF a manager uploaded, a
 * page framing the link a manager gave, or the built-in rulebook (the operator's RULEBOOK_PDF
 * from DATA_DIR when configured, else the shipped one).
 */

// The document is framed by /rulebook, so it may be framed by our own pages only.
const FRAMEABLE = "frame-ancestors 'self'";
const FRAMEABLE_HEADERS = { "X-Frame-Options": "SAMEORIGIN", "Cache-Control": "public, max-age=300" };

/**
 * Opened on its own (a phone is offered it so, rather than a frame inside the page), the shipped
 * rulebook starts with a way back to the site: a document of its own has no header. In the
 * viewer's frame (the browser says so in Sec-Fetch-Dest) the page around it has one.
 */
const BACK_BAR = `<nav aria-label="Site" style="position:sticky;top:0;background:#14100c;border-bottom:1px solid #4a3a2a;padding:0 1rem">
<a href="/" style="display:inline-flex;align-items:center;min-height:44px;color:#e0b458;font-weight:bold;text-decoration:none"><span aria-hidden="true">&#8249;&nbsp;</span>Back to Hopewell</a>
</nav>`;
const standaloneRulebook = rulebookHtml
  // A contents link's section stops below the bar, not under it.
  .replace("</head>", "<style>html { scroll-padding-top: 3.5rem; }</style>\n</head>")
  .replace("<body>", `<body>\n${BACK_BAR}`);

const framed = (request: Request) => request.headers.get("Sec-Fetch-Dest") === "iframe";

function pdfResponse(stream: Readable, size: number): Response {
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(size),
      "Content-Disposition": 'inline; filename="hopewell-rulebook.pdf"',
      "Content-Security-Policy": `default-src 'none'; ${FRAMEABLE}`,
      ...FRAMEABLE_HEADERS,
    },
  });
}

const escapeAttribute = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * The club's link: in the viewer, a page that frames it, allowed to frame that one origin (the
 * site's pages are not: their policy is made at start-up); opened on its own, the link itself.
 */
function linkResponse(url: string, request: Request): Response {
  if (!framed(request)) throw redirect(url, 302);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Hopewell rulebook</title>
<style>html, body { height: 100%; margin: 0; } iframe { display: block; width: 100%; height: 100%; border: 0; }</style>
</head>
<body><iframe src="${escapeAttribute(url)}" title="Hopewell rulebook, from ${escapeAttribute(new URL(url).host)}"></iframe></body>
</html>
`;
  return new Response(page, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; frame-src ${new URL(url).origin}; ${FRAMEABLE}`,
      Vary: "Sec-Fetch-Dest",
      ...FRAMEABLE_HEADERS,
    },
  });
}

async function builtInResponse(request: Request): Promise<Response> {
  const pdfPath = config().rulebook.pdfPath;
  if (pdfPath) {
    try {
      const stat = await fs.promises.stat(pdfPath);
      return pdfResponse(fs.createReadStream(pdfPath), stat.size);
    } catch (error) {
      logger.warn({ err: error, pdfPath }, "RULEBOOK_PDF cannot be read; serving the built-in rulebook");
    }
  }
  return new Response(framed(request) ? rulebookHtml : standaloneRulebook, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; ${FRAMEABLE}`,
      // The framed copy and the one opened on its own differ: a browser keeps each apart.
      Vary: "Sec-Fetch-Dest",
      ...FRAMEABLE_HEADERS,
    },
  });
}

/** The rulebook as the club chose it. */
export async function rulebookDocument(request: Request): Promise<Response> {
  const { content } = await currentFacts("rulebook");
  if (content.source === "link") return linkResponse(content.url, request);
  if (content.source === "file") {
    const stored = await openFile(content.key);
    if (stored) return pdfResponse(stored.stream, stored.size);
    logger.warn({ key: content.key }, "the club's uploaded rulebook is not in storage; serving the built-in rulebook");
  }
  return builtInResponse(request);
}
