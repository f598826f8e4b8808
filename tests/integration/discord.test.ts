import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { config, overrideConfig } from "~/platform/config.server";
import { rawRows } from "~/platform/db/client.server";
import { outbox } from "~/platform/db/schema";
import { chunkContent, deliverDiscord, queueDiscordPost } from "~/platform/discord/discord.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";
import { withTestDatabase } from "../helpers/db";
import { startWebhookServer } from "../helpers/webhook";

const db = withTestDatabase();
const original = { discord: config().discord, outbox: config().outbox };
afterEach(() => overrideConfig(original));

/** Runs worker rounds until nothing is pending (or the deadline passes). */
async function drain(deadlineMs = 10_000) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    await deliverDueMessages({ discord: deliverDiscord });
    const [row] = await rawRows<{ pending: number }>(
      db(),
      sql`select count(*)::int as pending from outbox where kind = 'discord' and status = 'pending'`,
    );
    if (row!.pending === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("chat notices", () => {
  it("splits long content into posts of at most 2000 characters without breaking words", () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(" ");
    const chunks = chunkContent(words);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.length <= 2000)).toBe(true);
    expect(chunks.join(" ")).toBe(words);
    expect(chunkContent("x".repeat(4001)).map((c) => c.length)).toEqual([2000, 2000, 1]);
  });

  it("queues nothing when no webhook is configured", async () => {
    overrideConfig({ discord: { ...original.discord, webhookUrl: undefined } });
    await queueDiscordPost(db(), "Nobody is listening");
    expect(await db().select().from(outbox).where(eq(outbox.kind, "discord"))).toEqual([]);
  });

  it("posts every chunk, in order, 100 ms apart, with mentions disabled", async () => {
    const hook = await startWebhookServer();
    overrideConfig({ discord: { webhookUrl: hook.url, username: "Hopewell", avatarUrl: "https://example.com/a.png" } });
    try {
      const content = `@everyone ${"The mine is singing again. ".repeat(170)}`;
      await db().transaction((tx) => queueDiscordPost(tx, content));
      await drain();
      expect(hook.requests).toHaveLength(3);
      expect(hook.requests.map((r) => r.body.content).join(" ")).toBe(content.trim());
      for (const request of hook.requests) {
        expect(request.body).toMatchObject({
          username: "Hopewell",
          avatar_url: "https://example.com/a.png",
          allowed_mentions: { parse: [] },
        });
        expect(String(request.body.content).length).toBeLessThanOrEqual(2000);
      }
      for (let i = 1; i < hook.requests.length; i++) {
        expect(hook.requests[i]!.at - hook.requests[i - 1]!.at).toBeGreaterThanOrEqual(95);
      }
    } finally {
      await hook.close();
    }
  });

  it("recovers from a 500 and then a 429, keeping the order", async () => {
    const answers = [{ status: 500 }, { status: 429, body: { retry_after: 0.3 } }];
    const hook = await startWebhookServer((i) => answers[i] ?? { status: 204 });
    overrideConfig({
      discord: { ...original.discord, webhookUrl: hook.url },
      outbox: { ...original.outbox, retryBaseMs: 50 },
    });
    try {
      await db().transaction(async (tx) => {
        await queueDiscordPost(tx, "first notice");
        await queueDiscordPost(tx, "second notice");
      });
      const started = performance.now();
      await drain();
      expect(hook.requests.map((r) => [r.body.content])).toEqual([
        ["first notice"],
        ["first notice"],
        ["first notice"],
        ["second notice"],
      ]);
      expect(hook.accepted.map((r) => r.body.content)).toEqual(["first notice", "second notice"]);
      // The 429's retry_after (0.3 s) was waited out before trying again.
      expect(hook.requests[2]!.at - hook.requests[1]!.at).toBeGreaterThanOrEqual(280);
      expect(performance.now() - started).toBeLessThan(5_000);
      const rows = await db().select().from(outbox).where(eq(outbox.kind, "discord"));
      expect(
        rows
          .filter((row) => row.payload.content === "first notice" || row.payload.content === "second notice")
          .every((row) => row.status === "sent"),
      ).toBe(true);
    } finally {
      await hook.close();
    }
  });

  it("records a refusal (4xx other than 429) and does not retry it", async () => {
    const hook = await startWebhookServer(() => ({ status: 400, body: { message: "Invalid Form Body" } }));
    overrideConfig({
      discord: { ...original.discord, webhookUrl: hook.url },
      outbox: { ...original.outbox, retryBaseMs: 50 },
    });
    try {
      await queueDiscordPost(db(), "a refused notice");
      await drain();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await deliverDueMessages({ discord: deliverDiscord });
      expect(hook.requests).toHaveLength(1);
      const [row] = await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.payload}->>'content' = 'a refused notice'`);
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row!.lastError).toMatch(/400.*Invalid Form Body/);
    } finally {
      await hook.close();
    }
  });
});
