import net from "node:net";

/**
 * A TCP proxy in front of PostgreSQL that can make a connection go silent: its bytes stop
 * flowing both ways while the sockets stay open, as after a NAT's idle timeout or a
 * failover, where neither side is told. Only connections that have sent LISTEN are frozen.
 */
export async function startPostgresProxy(target: { host: string; port: number }) {
  const pairs = new Set<{ client: net.Socket; server: net.Socket; listens: boolean; frozen: boolean }>();
  const proxy = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const pair = { client, server, listens: false, frozen: false };
    pairs.add(pair);
    client.on("data", (chunk) => {
      if (chunk.includes("LISTEN ")) pair.listens = true;
      if (!pair.frozen) server.write(chunk);
    });
    server.on("data", (chunk) => {
      if (!pair.frozen) client.write(chunk);
    });
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on("close", close).on("error", close);
    server.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    /** Silences every connection that is listening now; later connections flow. */
    freezeListeners(): number {
      let frozen = 0;
      for (const pair of pairs) {
        if (pair.listens && !pair.frozen) {
          pair.frozen = true;
          frozen++;
        }
      }
      return frozen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) {
          pair.client.destroy();
          pair.server.destroy();
        }
        proxy.close(() => resolve());
      }),
  };
}
