import crypto from "node:crypto";
import type http from "node:http";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import { carriesAuthCookie } from "~/identity/auth-cookie.server";

/**
 * Public pages whose HTML is the same for every signed-out visitor: it depends only
 * on the configuration and the club's own facts (dropped when a manager saves them,
 * http/app.ts), never on the request or other data. Each is rendered once per
 * process and served from memory with an ETag, so a crowd arriving from a post
 * about the game costs no rendering at all. Anyone carrying a session cookie gets a
 * freshly rendered page, never these bytes.
 *
 * These pages are served without the app's scripts: everything on them (links, the
 * FAQ and the phone menu, which are <details>) works as plain HTML, so a first visit
 * downloads no JavaScript at all and the next page loads the app as usual.
 */
export const ANONYMOUS_PAGES = new Set(["/", "/rulebook", "/locations"]);

/**
 * Browsers revalidate every time (a 304 costs nothing) so signing in shows the member's
 * navigation at once; a shared cache may keep the signed-out page for five minutes.
 * Vary keeps a cache from handing it to a request with cookies.
 */
const CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=300";
const VARY = "Accept-Encoding, Cookie";

type CachedPage = {
  etag: string;
  /** The page's Content-Security-Policy over https and over plain http: its inline styles are allowed by hash, as no nonce can be shared between visitors. */
  policies: { secure: string; plain: string };
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
};

/** A rendered page: its status, its headers and its HTML (rendered without a nonce). */
export type RenderedPage = { status: number; headers: Headers; html: string };

/** The SHA-256 sources for every inline <style> in the page, for its CSP (it has no scripts left). */
export function inlineStyleHashes(html: string): string[] {
  const hashes = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(
    (match) => `'sha256-${crypto.createHash("sha256").update(match[1]!, "utf8").digest("base64")}'`,
  );
  return [...new Set(hashes)];
}

/** The page as a browser without JavaScript gets it: no scripts, no module preloads. */
export function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/<link\b[^>]*rel="modulepreload"[^>]*>/g, "");
}

function isSignedOut(req: http.IncomingMessage): boolean {
  return !carriesAuthCookie(req.headers.cookie);
}

const ENCODINGS = ["br", "gzip", "identity"] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * The client's choice among the copies we hold, honouring q-values ("br;q=0" refuses br).
 * When the client's weights tie, the smaller copy wins. A client refusing everything
 * still gets the plain page: a readable page beats a 406.
 */
export function pickEncoding(req: Pick<http.IncomingMessage, "headers">): Encoding {
  const accepted = req.headers["accept-encoding"] ?? "";
  let encoding = ENCODING_CHOICES.get(accepted);
  if (!encoding) {
    // negotiator 1.x takes the server's order for ties; its published types predate that option.
    const negotiator = new Negotiator(req) as unknown as {
      encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
    };
    encoding = (negotiator.encoding(ENCODINGS, { preferred: ENCODINGS }) as Encoding | undefined) ?? "identity";
    // Browsers send a handful of distinct headers; the bound keeps odd clients from growing it.
    if (ENCODING_CHOICES.size >= 100) ENCODING_CHOICES.clear();
    ENCODING_CHOICES.set(accepted, encoding);
  }
  return encoding;
}
/** The choice for each Accept-Encoding header seen: the cached pages are the site's busiest answers, and the choice never changes. */
const ENCODING_CHOICES = new Map<string, Encoding>();

export function createAnonymousPageCache({
  render,
  policy,
}: {
  render: (pathname: string) => Promise<RenderedPage>;
  policy: (styleHashes: string[], secure: boolean) => string;
}) {
  const pages = new Map<string, Promise<CachedPage | null>>();

  async function build(pathname: string): Promise<CachedPage | null> {
    const page = await render(pathname);
    // Only a plain, successful page is shared; anything else is rendered per request.
    if (
      page.status !== 200 ||
      page.headers.has("Set-Cookie") ||
      !page.headers.get("Content-Type")?.startsWith("text/html")
    )
      return null;
    const html = withoutScripts(page.html);
    const identity = Buffer.from(html, "utf8");
    const styleHashes = inlineStyleHashes(html);
    return {
      etag: `"${crypto.createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
      policies: { secure: policy(styleHashes, true), plain: policy(styleHashes, false) },
      identity,
      gzip: zlib.gzipSync(identity, { level: 9 }),
      br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    };
  }

  function cached(pathname: string): Promise<CachedPage | null> {
    let page = pages.get(pathname);
    if (!page) {
      page = build(pathname).catch(() => null);
      pages.set(pathname, page);
      // A page that could not be shared is tried again on a later request.
      void page.then((built) => {
        if (!built) pages.delete(pathname);
      });
    }
    return page;
  }

  return {
    /** Forgets every page (the app they were rendered by has changed). */
    clear(): void {
      pages.clear();
    },
    /** True when this request may be answered from the cache. */
    applies(req: http.IncomingMessage): boolean {
      return (req.method === "GET" || req.method === "HEAD") && ANONYMOUS_PAGES.has(req.url ?? "") && isSignedOut(req);
    },

    /** Answers from the cache; resolves false (having sent nothing) when the page cannot be shared. */
    async serve(req: http.IncomingMessage, res: http.ServerResponse, secure: boolean): Promise<boolean> {
      const page = await cached(req.url!);
      if (!page) return false;
      res.setHeader("Content-Security-Policy", secure ? page.policies.secure : page.policies.plain);
      res.setHeader("ETag", page.etag);
      res.setHeader("Cache-Control", CACHE_CONTROL);
      res.setHeader("Vary", VARY);
      const known = String(req.headers["if-none-match"] ?? "")
        .split(",")
        .map((tag) => tag.trim().replace(/^W\//, ""));
      if (known.includes(page.etag)) {
        res.writeHead(304).end();
        return true;
      }
      const encoding = pickEncoding(req);
      const body = page[encoding];
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Content-Length", body.length);
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      res.writeHead(200);
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
