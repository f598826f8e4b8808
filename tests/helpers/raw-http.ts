import net from "node:net";

export type RawAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the whole response. */
  answeredMs: number;
  /** Milliseconds from the whole response to the server closing the connection. */
  closedAfterMs: number;
  /** Body bytes the client got to send before the server closed the connection. */
  sent: number;
};

/**
 * Posts a body over a bare socket the way an attacker's client does: it keeps writing
 * `bodyBytes` as fast as the socket takes them, with a Content-Length or chunked, reads
 * whatever comes back meanwhile (with a Content-Length or in chunks), and resolves when the
 * server closes the connection.
 */
export function sendRaw(
  baseUrl: string,
  path: string,
  {
    bodyBytes,
    chunked = false,
    headers = {},
    contentType = "application/x-www-form-urlencoded",
    timeoutMs = 20_000,
  }: {
    bodyBytes: number;
    chunked?: boolean;
    headers?: Record<string, string>;
    contentType?: string;
    timeoutMs?: number;
  },
): Promise<RawAnswer> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    const started = Date.now();
    let received = Buffer.alloc(0);
    let answeredAt: number | undefined;
    let sent = 0;
    let closed = false;
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: ${baseUrl}`,
      `Content-Type: ${contentType}`,
      chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${bodyBytes}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    const piece = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!closed && sent < bodyBytes) {
        const size = Math.min(piece.length, bodyBytes - sent);
        const data = chunked
          ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), piece.subarray(0, size), Buffer.from("\r\n")])
          : piece.subarray(0, size);
        sent += size;
        if (!socket.write(data)) return void socket.once("drain", pump);
      }
      if (!closed && chunked) socket.write("0\r\n\r\n");
    };
    const answer = () => {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return undefined;
      const [statusLine, ...lines] = received.subarray(0, end).toString().split("\r\n");
      const parsed = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      const raw = received.subarray(end + 4);
      if (parsed["transfer-encoding"] !== "chunked") {
        return {
          status: Number(statusLine!.split(" ")[1]),
          headers: parsed,
          body: raw,
          whole: raw.length >= Number(parsed["content-length"] ?? Infinity),
        };
      }
      // A page the server streams comes in chunks, each after its length in hex; a chunk of length 0 ends it.
      const chunks: Buffer[] = [];
      let at = 0;
      let whole = false;
      for (;;) {
        const lineEnd = raw.indexOf("\r\n", at);
        if (lineEnd < 0) break;
        const size = parseInt(raw.subarray(at, lineEnd).toString(), 16);
        if (size === 0) {
          whole = true;
          break;
        }
        if (raw.length < lineEnd + 2 + size + 2) break;
        chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      return { status: Number(statusLine!.split(" ")[1]), headers: parsed, body: Buffer.concat(chunks), whole };
    };
    socket.on("data", (data) => {
      received = Buffer.concat([received, typeof data === "string" ? Buffer.from(data, "latin1") : data]);
      if (answeredAt === undefined && answer()?.whole) answeredAt = Date.now();
    });
    // A write the server no longer reads fails (EPIPE, ECONNRESET): that is the close we wait for.
    let failure = "";
    socket.on(
      "error",
      (error: NodeJS.ErrnoException) => void (failure ||= `${error.code ?? error.message} after ${sent} bytes`),
    );
    socket.on("close", () => {
      closed = true;
      const response = answer();
      if (!response || answeredAt === undefined)
        return reject(
          new Error(`connection closed without a whole response (${failure}): ${received.toString().slice(0, 300)}`),
        );
      const { status, headers, body } = response;
      resolve({
        status,
        headers,
        body: body.toString(),
        answeredMs: answeredAt - started,
        closedAfterMs: Date.now() - answeredAt,
        sent,
      });
    });
    // A server that keeps reading would let this run for minutes: give up well before that.
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("timed out")));
    socket.write(head, pump);
  });
}
