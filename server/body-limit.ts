import type http from "node:http";
import type net from "node:net";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { errorPageHtml, type ErrorPage } from "./request-errors";

const MiB = 1024 * 1024;

/** Any form's body: the longest form (an application, a PEL) is well under 100 KB even percent-encoded. */
export const FORM_BODY_LIMIT = 1 * MiB;
/**
 * A research submission or a costume photo: its one file plus the other fields. A file a little over its
 * own limit still reaches the route, which answers with the form's own message.
 * deploy/nginx's client_max_body_size (6m) is this same figure.
 */
export const UPLOAD_BODY_LIMIT = UPLOAD_MAX_BYTES + 1 * MiB;

// The research form posts to /research without JavaScript and to /research/upload with it,
// and a costume photo to /costume; React Router's own form posts add ".data" to the path.
const UPLOAD_PATHS = new Set(["/research", "/research/upload", "/costume"]);

/** The largest body the request's address may carry. Any other spelling of a path gets the smaller limit. */
export function bodyLimitFor(url: string | undefined): number {
  const path = (url ?? "/").split("?")[0]!.toLowerCase().replace(/\.data$/, "").replace(/\/+$/, "");
  return UPLOAD_PATHS.has(path) ? UPLOAD_BODY_LIMIT : FORM_BODY_LIMIT;
}

// A no-break space keeps "5 MB" together on a narrow screen.
const megabytes = (bytes: number) => `${Math.round(bytes / MiB)}\u00a0MB`;
const TITLE = "Too Much to Carry";
const EXPLANATION =
  `That was more than we can take in one go: a form carries at most ${megabytes(FORM_BODY_LIMIT)}, ` +
  `and a research upload one file of at most ${megabytes(UPLOAD_MAX_BYTES)}. Go back, send less, and try again.`;

const TOO_LARGE: ErrorPage = { status: 413, title: TITLE, explanation: EXPLANATION };

export type BodyLimitOptions = {
  /** The built stylesheet's address, for the refusal page. */
  stylesheet?: string;
  /** The Content-Security-Policy of the refusal page (it has no inline scripts or styles). */
  contentSecurityPolicy: string;
};

/** How long a refused client may go on sending, its bytes read and dropped, before its connection is cut. */
const LINGER_MS = 2_000;

/**
 * Closes a connection whose client may still be sending, without losing the answer.
 * Node ends a `Connection: close` response with `destroySoon()`: it sends a FIN and
 * closes the socket as soon as the last byte is written. With the client's body still
 * arriving, closing a socket with unread data sends a TCP reset, and a client busy
 * sending then loses the response it had not yet read (seen here: EPIPE, no 413).
 * So the close is a half-close: the FIN goes out after the response, the rest of the
 * body is still read and dropped, and the socket is closed when the client closes its
 * side (a browser or curl stops sending on a final answer) or after LINGER_MS.
 */
function closeGently(socket: net.Socket) {
  socket.destroySoon = function lingeringClose(this: net.Socket) {
    this.end();
    const cut = setTimeout(() => this.destroy(), LINGER_MS);
    cut.unref();
    this.once("close", () => clearTimeout(cut));
  };
}

/**
 * Answers 413 and closes the connection (closeGently), instead of reading the rest of
 * a body the client may still be sending for the next request: the client learns at
 * once and stops.
 */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, options: BodyLimitOptions) {
  const html = (req.headers.accept ?? "").includes("text/html");
  const body = html ? errorPageHtml(TOO_LARGE, options.stylesheet) : `${TITLE}. ${EXPLANATION}\n`;
  res.writeHead(413, {
    "Content-Type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Content-Security-Policy": options.contentSecurityPolicy,
    "Cache-Control": "no-store",
    Connection: "close",
  });
  closeGently(req.socket);
  res.end(req.method === "HEAD" ? undefined : body);
}

// Chunked bodies read here in full (they are within the limit), for the app to use instead.
const collectedBodies = new WeakMap<http.IncomingMessage, Uint8Array<ArrayBuffer>>();

/**
 * The body of a request that came without a Content-Length, already read by
 * `limitRequestBody`; undefined for every other request (the app reads those itself).
 */
export function collectedBody(req: http.IncomingMessage): Uint8Array<ArrayBuffer> | undefined {
  return collectedBodies.get(req);
}

/**
 * Runs before anything reads the request: refuses a body over its address's limit
 * (bodyLimitFor) with 413, and otherwise calls `next`.
 *
 * The fetch adapter in front of React Router reads every body into memory as fast as it
 * arrives, whether or not an action reads it, so the limit has to hold before it starts.
 * A body with a Content-Length is judged by it: Node's parser never delivers more than
 * that, so such a body reaches the app untouched and as a stream. A chunked body has no
 * length to judge: it is counted as it arrives, dropped the moment it passes the limit,
 * and otherwise kept (at most the limit, which the adapter would hold anyway) for the
 * app (collectedBody). Browsers send a Content-Length with every form and upload.
 *
 * `expectsContinue`: the request came through the server's 'checkContinue' event, so
 * a client that waits for "100 Continue" is refused before it sends anything.
 */
export function limitRequestBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: BodyLimitOptions & { expectsContinue?: boolean },
  next: () => void,
): void {
  const limit = bodyLimitFor(req.url);
  const chunked = req.headers["transfer-encoding"] !== undefined;
  const declared = chunked ? undefined : Number(req.headers["content-length"] ?? 0);
  if (declared !== undefined && declared > limit) {
    refuse(req, res, options);
    return;
  }
  if (options.expectsContinue) res.writeContinue();
  if (!chunked) {
    next();
    return;
  }

  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    req.off("data", onData).off("end", onEnd).off("close", stop);
    chunks.length = 0;
  };
  function onData(chunk: Buffer) {
    received += chunk.length;
    if (received <= limit) {
      chunks.push(chunk);
      return;
    }
    stop();
    // The stream keeps flowing with no listener: whatever else arrives before the socket closes is dropped.
    refuse(req, res, options);
  }
  function onEnd() {
    const body = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    stop();
    collectedBodies.set(req, body);
    next();
  }
  req.on("data", onData).on("end", onEnd).on("close", stop);
}
