import http from "node:http";

export type ReceivedPost = { at: number; body: Record<string, unknown>; headers: http.IncomingHttpHeaders };

/**
 * A real HTTP server standing in for a webhook (the chat service's, an SMS gateway's). `respond` decides each
 * answer (status and body); every request is recorded, whatever the answer.
 */
export async function startWebhookServer(respond: (index: number) => { status: number; body?: unknown } = () => ({ status: 204 })) {
  const requests: ReceivedPost[] = [];
  const accepted: ReceivedPost[] = [];
  const server = http.createServer((req, res) => {
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/webhooks/1/token`,
    requests,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
