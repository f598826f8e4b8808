import http from "node:http";

export type ReceivedPost = { at: number; body: Record<string, unknown>; headers: http.IncomingHttpHeaders };

/** The stand-in's address on `port`, in the shape of a chat service's webhook. */
export function webhookUrl(port: number): string {
  return `http://127.0.0.1:${port}/api/webhooks/1/token`;
}

/**
 * A real HTTP server standing in for a webhook (the chat service's, an SMS gateway's). `respond` decides each
 * answer (status and body); every request is recorded, whatever the answer. A GET answers with the
 * accepted posts so far, for a test in another process than the stand-in (the browser tests'
 * workers read the texts of the gateway their run started, e2e/global-setup.ts).
 */
export async function startWebhookServer(
  respond: (index: number) => { status: number; body?: unknown } = () => ({ status: 204 }),
  { port = 0 } = {},
) {
  const requests: ReceivedPost[] = [];
  const accepted: ReceivedPost[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(accepted));
      return;
    }
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const post = { at: performance.now(), body: JSON.parse(raw) as Record<string, unknown>, headers: req.headers };
      const answer = respond(requests.length);
      requests.push(post);
      if (answer.status < 300) accepted.push(post);
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: webhookUrl((server.address() as { port: number }).port),
    requests,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The posts a webhook stand-in started elsewhere has accepted so far (its GET, above). */
export async function acceptedPosts(url: string): Promise<ReceivedPost[]> {
  return (await (await fetch(url)).json()) as ReceivedPost[];
}
