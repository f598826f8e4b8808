import type http from "node:http";
import type net from "node:net";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { errorPageHtml, type ErrorPage } from "./request-errors";

const MiB = 1024 * 1024;

/** Any form's body: the longest form (an application, a PEL) is well under 100 KB even percent-encoded. */
export const FORM_BODY_LIMIT = 1 * MiB;
/**
 * A research submission, a costume photo or a rulebook PDF: its one file plus the other fields. A file a little over its
 * own limit still reaches the route, which answers with the form's own message.
 * deploy/nginx's client_max_body_size (6m) is this same figure.
 */
export const UPLOAD_BODY_LIMIT = UPLOAD_MAX_BYTES + 1 * MiB;
/**
 * A message to members: its body is held to 20,000 characters by its form, which answers a longer
 * one with the field's own message. Room for a body of a megabyte or so (a paste gone wrong) lets
 * it, where a form's limit would answer with this layer's page and lose what was typed.
 */
export const LONG_FORM_BODY_LIMIT = 2 * MiB;

// The research form posts to /research without JavaScript and to /research/upload with it,
// and a costume photo to /costume and /costume/upload likewise; a manager's rulebook PDF goes
// to /tools/club/rulebook and /tools/club/rulebook/upload likewise. React Router's own form posts add ".data" to the path.
const UPLOAD_PATHS = new Set([
  "/research",
  "/research/upload",
  "/costume",
  "/costume/upload",
  "/tools/club/rulebook",
  "/tools/club/rulebook/upload",
]);

// The managers' compose form (features/messages), posted with or without JavaScript.
const LONG_FORM_PATHS = new Set(["/tools/messages/new"]);

/** The largest body the request's address may carry. Any other spelling of a path gets the smaller limit. */
export function bodyLimitFor(url: string | undefined): number {
  const path = (url ?? "/")
    .split("?")[0]!
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  if (UPLOAD_PATHS.has(path)) return UPLOAD_BODY_LIMIT;
  return LONG_FORM_PATHS.has(path) ? LONG_FORM_BODY_LIMIT : FORM_BODY_LIMIT;
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

/**
 * How long a refused client is given to read its answer before its connection is cut: one
 * that reads while it sends (a browser, curl, which stop sending on a final answer) has it
 * within a round trip.
 */
const LINGER_MS = 3_000;

/**
 * Closes a connection whose client may still be sending, without losing the answer.
 * Node ends a `Connection: close` response with `destroySoon()`: it sends a FIN and
 * closes the socket as soon as the last byte is written. With the client's body still
 * arriving, closing a socket with unread data sends a TCP reset, and a client busy
 * sending then loses the response it had not yet read (seen here: EPIPE, no 413).
 * So the close is a half-close: the FIN goes out after the response, and the socket is
 * closed LINGER_MS later.
 *
 * The rest of the body is not read meanwhile: a client still sending waits on TCP's flow
 * control until then. Reading it only to drop it cost memory like its size: Node copies each
 * piece the HTTP parser takes into a buffer of its own, and newer V8s (Node.js 24's) free them late
 * (no young-generation collection while a full one is marking, which is what a burst of
 * such buffers starts), so 200 refused 5 MB uploads at once grew the server by 81–230 MB
 * (docs/decisions/0040-refused-bodies-left-unread.md).
 */
function closeGently(socket: net.Socket) {
  socket.destroySoon = function lingeringClose(this: net.Socket) {
    this.end();
    // Node's server stops reading from a connection whose socket is paused, and resumes it
    // itself as the answer ends (to drain the body): it is paused again each time.
    const stopReading = () => this.pause();
    stopReading();
    this.on("resume", stopReading);
    const cut = setTimeout(() => this.destroy(), LINGER_MS);
    cut.unref();
    this.once("close", () => clearTimeout(cut));
  };
}

/** The 413 answer: the site's page for a browser, a line of text for anything else. */
function tooLarge(
  req: http.IncomingMessage,
  options: BodyLimitOptions,
): { headers: Record<string, string>; body: string | undefined } {
  const html = (req.headers.accept ?? "").includes("text/html");
  const body = html ? errorPageHtml(TOO_LARGE, options.stylesheet) : `${TITLE}. ${EXPLANATION}\n`;
  return {
    headers: {
      "Content-Type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Content-Security-Policy": options.contentSecurityPolicy,
      "Cache-Control": "no-store",
      Connection: "close",
    },
    body: req.method === "HEAD" ? undefined : body,
  };
}

/**
 * Answers 413 and closes the connection (closeGently), instead of reading the rest of
 * a body the client may still be sending for the next request: the client learns at
 * once and stops.
 */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, options: BodyLimitOptions) {
  const { headers, body } = tooLarge(req, options);
  res.writeHead(413, headers);
  closeGently(req.socket);
  res.end(body);
}

/**
 * Runs before anything reads the request: refuses a body whose Content-Length is over its
 * address's limit (bodyLimitFor) with 413, and otherwise calls `next`. Node's parser never
 * delivers more than a Content-Length, so such a body reaches the app within its limit. A
 * chunked body has no length to judge: `bodyForApp` counts it as the app reads it.
 */
export function limitRequestBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: BodyLimitOptions,
  next: () => void,
): void {
  const chunked = req.headers["transfer-encoding"] !== undefined;
  const declared = chunked ? 0 : Number(req.headers["content-length"] ?? 0);
  if (declared > bodyLimitFor(req.url)) {
    refuse(req, res, options);
    return;
  }
  next();
}

/** Why a chunked body stopped reaching the app: it passed its address's limit. */
class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export type AppBody = {
  /** The request to hand the app: the same one, or one whose body is read through the checks below. */
  request: Request;
  /** The app's answer, or the 413 page when a chunked body passed its limit while the app read it. */
  answer(response: Response): Promise<Response>;
};

/**
 * The request the app reads. The fetch adapter reads a body only as the app asks for it, so a
 * request refused before its body is read (no session, a role the address refuses, a cross-site
 * post) costs no more memory than a socket's buffers, however large the body: the client waits
 * (TCP flow control) and then hears the refusal. Two things happen as the app reads:
 * - a client that asked before sending ("Expect: 100-continue", `expectsContinue`) is told to go
 *   on only then, so a refused one never sends its body at all;
 * - a chunked body is counted, and its reading fails once it passes the address's limit; the
 *   app's answer (to a form it could not read) is then replaced by the 413 page.
 */
export function bodyForApp(
  req: http.IncomingMessage,
  request: Request,
  options: BodyLimitOptions & { expectsContinue: boolean; writeContinue: () => void },
): AppBody {
  const chunked = req.headers["transfer-encoding"] !== undefined;
  const source = request.body;
  if (!source || (!chunked && !options.expectsContinue)) return { request, answer: async (response) => response };
  const limit = bodyLimitFor(req.url);
  let received = 0;
  let over = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reader) {
          if (options.expectsContinue) options.writeContinue();
          reader = source.getReader();
        }
        const { done, value } = await reader.read();
        if (done) return controller.close();
        received += value.byteLength;
        if (chunked && received > limit) {
          over = true;
          controller.error(new BodyTooLargeError(limit));
          await reader.cancel();
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => (reader ?? source).cancel(reason),
    },
    // Nothing is read before the app asks.
    { highWaterMark: 0 },
  );
  return {
    request: new Request(request, { body, duplex: "half" } as RequestInit),
    async answer(response) {
      if (!over) return response;
      await response.body?.cancel();
      const { headers, body: page } = tooLarge(req, options);
      return new Response(page, { status: 413, headers });
    },
  };
}

/**
 * Once the app has answered: when the request's body has not all arrived (the app refused it
 * unread, or stopped reading at a limit), the answer closes the connection (closeGently): what
 * arrives until the answer is written is dropped, never kept, and the rest is not read. Reading
 * it all to keep the connection would cost the client the time of a transfer whose answer it
 * already has. Call it before the answer's head is written.
 */
export function closeUnreadBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.complete || res.headersSent) return;
  res.setHeader("Connection", "close");
  closeGently(req.socket);
  // The fetch adapter's listener would keep what arrives for a reader that is gone.
  req.removeAllListeners("data");
  req.resume();
}
