import { config } from "../config.server";
import type { Database, Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";
import { GiveUp, RetryLater, type Deliverer } from "../outbox/outbox.server";

/**
 * Text messages, through an SMS gateway's HTTPS webhook (SMS_WEBHOOK_URL): queued in the
 * outbox like email and posted by its worker as JSON `{ "to": "+18605550142", "text": "..." }`,
 * with `Authorization: Bearer SMS_WEBHOOK_TOKEN` when a token is set. Only sign-in codes are
 * sent this way. No log ever carries a message's text or the whole number.
 */

/** What the outbox holds: the number (E.164), the text, and a label the Outbox page shows instead of the text. */
export type SmsPayload = { to: string; text: string; label: string };

/** Whether text messages can be sent at all: the phone factor exists only then. */
export function smsEnabled(): boolean {
  return Boolean(config().sms.webhookUrl);
}

/** Messages to one number go out in the order they were queued, and never hold back another number's. */
export function smsOrderKey(phoneNumber: string): string {
  return `sms:${phoneNumber}`;
}

/** A number as pages and logs may show it: its last two digits only ("•••• ••23"). */
export function maskPhone(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, "");
  return `•••• ${digits.slice(-2).padStart(2, "•")}`;
}

/** Queues a text in the caller's transaction (or at once). Every text is a code someone waits for: urgent. */
export async function queueSms(tx: Database | Transaction, message: SmsPayload): Promise<void> {
  const [row] = await tx
    .insert(outbox)
    .values({ kind: "sms", orderKey: smsOrderKey(message.to), urgent: true, payload: message })
    .returning({ id: outbox.id });
  logger.info({ id: row!.id, label: message.label }, "text message queued");
}

/** How long a gateway has to answer a text. They answer within a second or two. */
const SMS_GATEWAY_TIMEOUT_MS = 10_000;

/** A gateway's answer may quote the number: long runs of digits are left out of what is kept and logged. */
function withoutNumbers(text: string): string {
  return text.replace(/\+?\d[\d\s().-]{4,}\d/g, "[number]");
}

/**
 * Posts one queued text to the gateway. A network failure, a timeout, 408, 429 (waiting out
 * its Retry-After) and 5xx are retried with the outbox's back-off; any other refusal (a bad
 * number, a refused token) fails the message at once and shows on /outbox.
 */
export const deliverSms: Deliverer = async (row) => {
  const { webhookUrl, token } = config().sms;
  if (!webhookUrl) throw new GiveUp("SMS_WEBHOOK_URL is not set");
  const payload = row.payload as SmsPayload;
  const response = await fetch(webhookUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ to: payload.to, text: payload.text }),
    // A gateway that hangs fails the attempt here, and the outbox retries it later.
    signal: AbortSignal.timeout(SMS_GATEWAY_TIMEOUT_MS),
  }).catch((error: unknown) => {
    // The cause names the gateway's address at most, never the member's number.
    throw new Error(`the SMS gateway could not be reached (${error instanceof Error ? error.name : "error"})`);
  });
  if (response.ok) return;
  if (response.status === 429) {
    const seconds = Number(response.headers.get("Retry-After"));
    throw new RetryLater(
      "the SMS gateway is rate limiting (429)",
      Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : undefined,
    );
  }
  if (response.status >= 500 || response.status === 408) throw new Error(`the SMS gateway answered ${response.status}`);
  const body = withoutNumbers((await response.text().catch(() => "")).slice(0, 200));
  throw new GiveUp(`the SMS gateway refused the message (${response.status})${body ? `: ${body}` : ""}`);
};
