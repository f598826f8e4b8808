import { setTimeout as sleep } from "node:timers/promises";
import { WEBHOOK_CHUNK_DELAY_MS, WEBHOOK_MESSAGE_LIMIT } from "~/game/rules";
import { config } from "../config.server";
import type { Database, Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { GiveUp, RetryLater, type Deliverer } from "../outbox/outbox.server";

export type DiscordPayload = {
  content: string;
  username: string;
  avatar_url?: string;
  /** No @everyone, @here, role or user pings from member text. */
  allowed_mentions: { parse: [] };
};

/**
 * Splits `content` into posts of at most `limit` characters, breaking at a paragraph,
 * a line or a space when one is near the end, so words stay whole.
 */
export function chunkContent(content: string, limit = WEBHOOK_MESSAGE_LIMIT): string[] {
  const chunks: string[] = [];
  let rest = content.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    const breakAt = [window.lastIndexOf("\n\n"), window.lastIndexOf("\n"), window.lastIndexOf(" ")].find(
      (i) => i > limit * 0.5,
    );
    const end = breakAt ?? limit;
    chunks.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}

/** Queues a notice in the caller's transaction; nothing is queued when no webhook is configured. */
export async function queueDiscordPost(tx: Database | Transaction, content: string): Promise<void> {
  const { webhookUrl, username, avatarUrl } = config().discord;
  if (!webhookUrl) return;
  const rows = chunkContent(content).map((chunk) => ({
    kind: "discord" as const,
    // One channel: its notices, and the chunks of each, are posted in the order they were queued.
    orderKey: "discord",
    payload: {
      content: chunk,
      username,
      ...(avatarUrl ? { avatar_url: avatarUrl } : {}),
      allowed_mentions: { parse: [] },
    } satisfies DiscordPayload,
  }));
  if (rows.length > 0) await tx.insert(outbox).values(rows);
}

/**
 * Posts one queued notice. 5xx and network failures are retried with back-off; a 429
 * waits out Discord's retry_after; any other 4xx is recorded and not retried.
 * Consecutive posts are spaced by WEBHOOK_CHUNK_DELAY_MS (100 ms).
 */
export const deliverDiscord: Deliverer = async (row) => {
  const url = config().discord.webhookUrl;
  if (!url) throw new GiveUp("DISCORD_WEBHOOK_URL is not set");
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(row.payload),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.ok) {
    await sleep(WEBHOOK_CHUNK_DELAY_MS);
    return;
  }
  if (response.status === 429) {
    const body = (await response.json().catch(() => ({}))) as { retry_after?: number };
    const header = Number(response.headers.get("Retry-After"));
    const seconds = typeof body.retry_after === "number" ? body.retry_after : Number.isFinite(header) ? header : 1;
    throw new RetryLater("Discord rate limit (429)", Math.ceil(seconds * 1000));
  }
  if (response.status >= 500) throw new Error(`Discord answered ${response.status}`);
  throw new GiveUp(`Discord refused the post (${response.status}): ${(await response.text()).slice(0, 200)}`);
};
