import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { createEvent } from "~/platform/db/factories";
import { unpackMigratedDatabase } from "../helpers/db";
import { createMember, sessionCookie } from "../helpers/members";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

const MB = 1024 * 1024;
const BOUNDARY = "----hopewell-crash";

/**
 * A server killed with SIGKILL in the middle of an upload leaves the part it had received in
 * DATA_DIR/uploads (a member's file, 1.5 MB here). The next start removes it, without waiting for
 * the hour-long grace that protects uploads still arriving.
 */
describe("a server killed during an upload", () => {
  withProductionBuild();
  let dataDir = "";
  let cookie = "";
  let eventId = "";
  const servers: RunningProcess[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-upload-crash-")));
    const handle = await openDatabase({ dataDir });
    setDatabase(handle);
    try {
      cookie = await sessionCookie(await createMember("player"));
      eventId = (await createEvent(handle.db, { title: "The Long Dark", date: "2099-10-02", status: "future" })).id;
    } finally {
      await closeDatabase();
    }
  }, 60_000);
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const spooled = () => {
    const dir = path.join(dataDir, "uploads");
    return fs.existsSync(dir)
      ? fs.readdirSync(dir).map((name) => ({ name, size: fs.statSync(path.join(dir, name)).size }))
      : [];
  };

  it("leaves no part of it in DATA_DIR/uploads once the server has started again", async () => {
    const first = await startBuiltServer({ DATA_DIR: dataDir });
    servers.push(first.server);

    // The research form with a 5 MB PDF, of which 1.5 MB is sent before the server dies.
    const field = (name: string, value: string) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = Buffer.from(
      field("submissionKey", randomUUID()) +
        field("eventId", eventId) +
        field("sources", "The assay office's ledgers.") +
        field("research", "The seam runs under the chapel.") +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="seam.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const fileBytes = 5 * MB - 64 * 1024;
    const sentPart = Buffer.concat([head, Buffer.from("%PDF-1.4\n"), Buffer.alloc(1.5 * MB, 0x20)]);
    const socket = net.connect(first.port, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => {});
    socket.write(
      [
        "POST /research/upload HTTP/1.1",
        `Host: 127.0.0.1:${first.port}`,
        `Origin: ${first.url}`,
        `Cookie: ${cookie}`,
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
        `Content-Length: ${head.length + fileBytes + tail.length}`,
        "",
        "",
      ].join("\r\n"),
    );
    socket.write(sentPart);
    await expect
      .poll(() => spooled().reduce((sum, file) => sum + file.size, 0), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(MB);

    first.server.child.kill("SIGKILL");
    expect((await first.server.exited).signal).toBe("SIGKILL");
    // What the killed server left.
    expect(spooled()).toHaveLength(1);

    const second = await startBuiltServer({ DATA_DIR: dataDir });
    servers.push(second.server);
    await expect.poll(spooled, { timeout: 10_000 }).toEqual([]);
    await second.server.waitFor(/"msg":"removed 1 unfinished and 0 unreferenced upload files"/, 10_000);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    second.server.child.kill("SIGTERM");
    await second.server.exited;
  }, 240_000);
});
