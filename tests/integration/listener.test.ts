import { describe, expect, it } from "vitest";
import { followDatabaseChanges } from "~/platform/db/changes.server";
import type { DatabaseHandle } from "~/platform/db/client.server";
import { postgresListener } from "~/platform/db/postgres.server";
import { freePort } from "../helpers/ports";

describe("the PostgreSQL notification listener", () => {
  it("reports a failed connection once, as a refusal, not also as a lost connection", async () => {
    const listen = postgresListener(`postgres://postgres@127.0.0.1:${await freePort()}/nothing`);
    let lost = 0;
    await expect(
      listen(
        "hopewell_changes",
        () => {},
        () => lost++,
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lost).toBe(0);
  });

  it("retries at a steady pace while the database is down, one attempt at a time", async () => {
    const listen = postgresListener(`postgres://postgres@127.0.0.1:${await freePort()}/nothing`);
    let attempts = 0;
    const handle = Promise.resolve({
      listen: (...args: Parameters<typeof listen>) => (attempts++, listen(...args)),
    } as unknown as DatabaseHandle);
    const feed = followDatabaseChanges(handle, 50);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await feed.stop();
    // One attempt every 50 ms is about 20; each failure scheduling two retries made thousands.
    expect(attempts).toBeGreaterThan(3);
    expect(attempts).toBeLessThan(30);
  });
});
