import fs from "node:fs";
import { Readable } from "node:stream";
import rulebookHtml from "~/content/rulebook.html?raw";
import { config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";

// The document is framed by /rulebook, so it may be framed by our own pages only.
const FRAMEABLE = "frame-ancestors 'self'";
const FRAMEABLE_HEADERS = { "X-Frame-Options": "SAMEORIGIN", "Cache-Control": "public, max-age=300" };

/** The rulebook shown in the viewer: the club's PDF from DATA_DIR when configured, else the shipped one. */
export async function loader() {
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
  return new Response(rulebookHtml, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; ${FRAMEABLE}`,
      ...FRAMEABLE_HEADERS,
    },
  });
}
