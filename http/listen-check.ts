import net from "node:net";

/**
 * Whether this process can listen on HOST and PORT, checked before the database is
 * opened, so that a mistyped host or a busy port stops the start with a plain message
 * naming the setting, and leaves nothing (no lock, no half-opened database) behind.
 * Returns the problem, or undefined when the address is free.
 */
export function listenProblem(port: number, host: string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      const where = host ? `"${host}"` : "all interfaces";
      switch (error.code) {
        case "ENOTFOUND":
        case "EAI_AGAIN":
        case "EAI_FAIL":
          return resolve(`HOST: "${host}" is not a name or address this machine knows`);
        case "EADDRNOTAVAIL":
          return resolve(`HOST: "${host}" is not an address of this machine`);
        case "EADDRINUSE":
          return resolve(`PORT: ${port} is already in use on ${where} (another server is running there)`);
        case "EACCES":
          return resolve(
            `PORT: ${port} needs more privileges than this user has (use a port above 1023 behind a proxy)`,
          );
        default:
          return resolve(`HOST/PORT: cannot listen on ${where} port ${port}: ${error.message}`);
      }
    });
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
}
