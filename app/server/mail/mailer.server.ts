import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config.server";
import { GiveUp, type Deliverer } from "../outbox/outbox.server";
import type { EmailMessage } from "../outbox/outbox.server";

let transport: { url: string; transporter: Transporter } | undefined;

function transporter(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    transport = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  return transport.transporter;
}

/** The SMTP commands whose 5xx refusal is about this message (its recipient or content), not the setup. */
const MESSAGE_COMMANDS = new Set(["RCPT TO", "DATA"]);

/**
 * Sends one queued email over SMTP. A permanent refusal of this message (a 5xx reply to its
 * recipient or its content, such as 550 for an unknown address) fails it at once. Anything
 * else is retried: a 4xx, no connection, a timeout, and also a 5xx to the login or the sender
 * address, which is a setting to fix and would otherwise fail every message.
 */
export const deliverEmail: Deliverer = async (row) => {
  const url = config().mail.smtpUrl;
  if (!url) throw new Error("SMTP_URL is not set");
  const message = row.payload as EmailMessage;
  try {
    await transporter(url).sendMail({
      from: config().mail.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  } catch (error) {
    const { responseCode, command } = error as { responseCode?: unknown; command?: unknown };
    const permanent = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 && typeof command === "string" && MESSAGE_COMMANDS.has(command);
    if (permanent) throw new GiveUp((error as Error).message);
    throw error;
  }
};
