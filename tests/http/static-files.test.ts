import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/platform/config.server";
import { createAppServer } from "../../http/app";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

/**
 * The browsers' files when the build under a running server changes (an operator building the
 * next version before restarting): a file listed at start but gone since cuts off that one answer
 * and leaves the server up.
 */
describe("static files", () => {
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-assets-"));
  let server: ReturnType<typeof createAppServer>;
  let url = "";

  beforeAll(async () => {
    fs.writeFileSync(path.join(assets, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    fs.writeFileSync(path.join(assets, "robots.txt"), "User-agent: *\n");
    server = createAppServer(config(), { assetsDir: assets });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(assets, { recursive: true, force: true });
  });

  it("survive a file removed after the server started", async () => {
    expect((await fetch(`${url}/favicon.svg`)).status).toBe(200);
    fs.rmSync(path.join(assets, "favicon.svg"));
    // The answer is cut off (its headers were already on their way), but the process stays up.
    await fetch(`${url}/favicon.svg`)
      .then((response) => response.text())
      .catch(() => "cut off");
    const next = await fetch(`${url}/robots.txt`);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe("User-agent: *\n");
  });
});
