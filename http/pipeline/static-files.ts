import type http from "node:http";
import path from "node:path";
import sirv from "sirv";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** The production server's files for browsers. */
export function builtAssets(dir: string): Middleware {
  return sirv(path.resolve(dir), {
    etag: true,
    // The build writes .br and .gz copies of the assets (scripts/precompress.mjs).
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      // sirv lists the files once, at start, and pipes each without an error handler: a file gone
      // since (a new build written under the running server) would throw out of the process.
      // That request's answer is cut off instead; the next start serves the new build.
      res.once("pipe", (file: NodeJS.ReadableStream) => file.once("error", () => res.destroy()));
      // Vite's hashed files never change; anything else may.
      res.setHeader(
        "Cache-Control",
        pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      );
    },
  });
}
