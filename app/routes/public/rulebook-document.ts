import fs from "node:fs";
import { Readable } from "node:stream";
import type { Route } from "./+types/rulebook-document";
import rulebookHtml from "~/content/rulebook.html?raw";
import { config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";

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

/** The rulebook shown in the viewer: the club's PDF from DATA_DIR when configured, else the shipped one. */
export async function loader({ request }: Route.LoaderArgs) {
  const pdfPath = config().rulebook.pdfPath;
  if (pdfPath) {
    try {
      const stat = await fs.promises.stat(pdfPath);
      const stream = Readable.toWeb(fs.createReadStream(pdfPath)) as ReadableStream<Uint8Array>;
      return new Response(stream, {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Length": String(stat.size),
          "Content-Disposition": 'inline; filename="hopewell-rulebook.pdf"',
          "Content-Security-Policy": `default-src 'none'; ${FRAMEABLE}`,
          ...FRAMEABLE_HEADERS,
        },
      });
    } catch (error) {
      logger.warn({ err: error, pdfPath }, "RULEBOOK_PDF cannot be read; serving the built-in rulebook");
    }
  }
  const framed = request.headers.get("Sec-Fetch-Dest") === "iframe";
  return new Response(framed ? rulebookHtml : standaloneRulebook, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; ${FRAMEABLE}`,
      // The framed copy and the one opened on its own differ: a browser keeps each apart.
      Vary: "Sec-Fetch-Dest",
      ...FRAMEABLE_HEADERS,
    },
  });
}
