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
 * whatever comes back meanwhile, and resolves when the server closes the connection.
 */
export function sendRaw(
  baseUrl: string,
  path: string,
  { bodyBytes, chunked = false, headers = {} }: { bodyBytes: number; chunked?: boolean; headers?: Record<string, string> },
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
      "Content-Type: application/x-www-form-urlencoded",
      chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${bodyBytes}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    const piece = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!closed && sent < bodyBytes) {
        const size = Math.min(piece.length, bodyBytes - sent);
        const data = chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), piece.subarray(0, size), Buffer.from("\r\n")]) : piece.subarray(0, size);
        sent += size;
        if (!socket.write(data)) return void socket.once("drain", pump);
      }
      if (!closed && chunked) socket.write("0\r\n\r\n");
    };
    const answer = () => {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return undefined;
      const [statusLine, ...lines] = received.subarray(0, end).toString().split("\r\n");
      const parsed = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      return { status: Number(statusLine!.split(" ")[1]), headers: parsed, body: received.subarray(end + 4) };
    };
    socket.on("data", (data) => {
      received = Buffer.concat([received, data]);
      const response = answer();
      if (answeredAt === undefined && response && response.body.length >= Number(response.headers["content-length"] ?? Infinity)) answeredAt = Date.now();
    });
    // A write the server no longer reads fails (EPIPE, ECONNRESET): that is the close we wait for.
    let failure = "";
    socket.on("error", (error: NodeJS.ErrnoException) => void (failure ||= `${error.code ?? error.message} after ${sent} bytes`));
    socket.on("close", () => {
      closed = true;
      const response = answer();
      if (!response || answeredAt === undefined) return reject(new Error(`connection closed without a whole response (${failure}): ${received.toString().slice(0, 300)}`));
      resolve({ ...response, body: response.body.toString(), answeredMs: answeredAt - started, closedAfterMs: Date.now() - answeredAt, sent });
    });
    // A server that keeps reading would let this run for minutes: give up well before that.
    socket.setTimeout(20_000, () => socket.destroy(new Error("timed out")));
    socket.write(head, pump);
  });
}
