import { config } from "../config.server";
import type { Database, Transaction } from "../db/client.server";
import { outbox } from "../db/schema";
import { logger } from "../logger.server";

/**
 * `urgent`: someone is waiting for it on a page (a sign-in code, a reset link), so it goes out
 * ahead of bulk mail (reminders, notices); the template that writes the email says so.
 */
export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  urgent?: boolean;
  /** Headers of the message's own (a list's unsubscribe headers); never From, To or Subject. */
  headers?: Record<string, string>;
};
export type OutboxRow = typeof outbox.$inferSelect;

/** What a delivery attempt can say beyond "sent". */
export class RetryLater extends Error {
  constructor(
    message: string,
    public readonly afterMs?: number,
  ) {
    super(message);
  }
}
export class GiveUp extends Error {}
/**
 * A failure only the operator can end (a setting the provider refuses, such as SMTP_URL's
 * password): the message waits and is retried as usual, and the log says so at error level,
 * naming the setting, so whoever watches the errors hears of it.
 */
export class SettingRefused extends Error {
  constructor(
    message: string,
    public readonly setting: string,
  ) {
    super(message);
  }
}

/**
 * What a deliverer is told besides its message: `signal` is aborted when the worker stops, for a
 * deliverer that waits (for its pace) before it tries.
 */
export type DeliveryContext = { signal: AbortSignal };
export type Deliverer = (row: OutboxRow, context?: DeliveryContext) => Promise<void>;

/**
 * Thrown by a deliverer that gives its message back untried (the worker is stopping while it
 * waited its turn, or a manager discarded it meanwhile): the message is released as it was, with
 * no attempt counted, and a discarded one stays discarded.
 */
export class GivenBack extends Error {}
export type Deliverers = Partial<Record<OutboxRow["kind"], Deliverer>>;

/** Tries before a message that keeps failing is given up (the worker marks it failed then). */
export const MAX_ATTEMPTS = 12;

const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** The key that orders an email: its recipient, so one refused address never holds back mail to others. */
export function emailOrderKey(to: string): string {
  return `email:${to.trim().toLowerCase()}`;
}

/** Queues an email in the caller's transaction: it is sent only if that transaction commits. */
export async function queueEmail(tx: Database | Transaction, message: EmailMessage, { logText = false } = {}) {
  const { urgent = false, ...payload } = message;
  const [row] = await tx
    .insert(outbox)
    .values({ kind: "email", orderKey: emailOrderKey(message.to), urgent, payload })
    .returning({ id: outbox.id });
  if (!config().mail.smtpUrl) {
    // Without SMTP the message waits in the outbox, where managers see it. Logs never carry the
    // recipient; outside production the text is logged so a developer can follow its links.
    logger.info(
      { id: row!.id, subject: message.subject, ...(logText && !config().isProduction ? { text: message.text } : {}) },
      "email queued; no SMTP_URL is set, so it stays in the outbox",
    );
  }
}

/** The wait before attempt `attempts + 1`: doubling from the base, capped at an hour. */
export function backoffMs(attempts: number, baseMs = config().outbox.retryBaseMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}
