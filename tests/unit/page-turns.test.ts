import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createPageTurns } from "../../http/pipeline/page-turns";

/** Keeps the thread busy for `ms`, as a page drawn from the embedded database does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("pages drawn in turns", () => {
  it("draws one page at a time, in the order asked, each in a turn of the event loop of its own", async () => {
    const inTurn = createPageTurns({ slots: 1, leaseMs: 1_000 });
    const seen: string[] = [];
    const page = (name: string) => async () => {
      seen.push(`${name} starts`);
      // What a finished page waits for before it is sent (compression's callback, say).
      setImmediate(() => seen.push(`after ${name}`));
      busy(5);
      await Promise.resolve();
      seen.push(`${name} ends`);
      return name;
    };
    const drawn = await Promise.all([inTurn(page("a")), inTurn(page("b")), inTurn(page("c"))]);
    expect(drawn).toEqual(["a", "b", "c"]);
    await new Promise((turn) => setImmediate(turn));
    // Each page's own follow-up work runs before the next page starts: nothing waits behind a stretch of pages.
    expect(seen).toEqual([
      "a starts",
      "a ends",
      "after a",
      "b starts",
      "b ends",
      "after b",
      "c starts",
      "c ends",
      "after c",
    ]);
  });

  it("lets the next page start when one waits on something else longer than its lease, and that one still finishes", async () => {
    const inTurn = createPageTurns({ slots: 1, leaseMs: 20 });
    const order: string[] = [];
    const slow = inTurn(async () => {
      await sleep(200);
      order.push("slow");
      return "slow";
    });
    const quick = inTurn(async () => {
      order.push("quick");
      return "quick";
    });
    expect(await Promise.all([slow, quick])).toEqual(["slow", "quick"]);
    expect(order).toEqual(["quick", "slow"]);
  });

  it("passes a page's failure to whoever asked for it, and goes on with the next", async () => {
    const inTurn = createPageTurns({ slots: 1, leaseMs: 1_000 });
    const failed = inTurn(async () => {
      throw new Error("the loader failed");
    });
    const thrown = inTurn(() => {
      throw new Error("failed as it started");
    });
    const next = inTurn(async () => "next");
    await expect(failed).rejects.toThrow("the loader failed");
    await expect(thrown).rejects.toThrow("failed as it started");
    await expect(next).resolves.toBe("next");
  });

  it("draws up to its number of slots at once", async () => {
    const inTurn = createPageTurns({ slots: 2, leaseMs: 1_000 });
    let running = 0;
    let most = 0;
    const page = () =>
      inTurn(async () => {
        most = Math.max(most, ++running);
        await sleep(10);
        running--;
      });
    await Promise.all([page(), page(), page(), page(), page()]);
    expect(most).toBe(2);
  });
});
