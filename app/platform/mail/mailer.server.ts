import nodemailer, { type Transporter } from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { config } from "../config.server";
import { GiveUp, SettingRefused, type Deliverer, type DeliveryContext } from "../outbox/outbox.server";
import type { EmailMessage } from "../outbox/outbox.server";

/**
 * How long an attempt waits on the SMTP server: to connect, for its greeting, and for any
 * answer once talking. A server that hangs fails the attempt within these, and the outbox
 * retries it later; nodemailer's own limits (2 minutes, 30 seconds, 10 minutes) kept a hung
 * server's attempt going for half a minute and more. A healthy server answers in well under a
 * second; its slowest step, accepting a message's data, rarely takes more than a few.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

let transport: { url: string; transporter: Transporter } | undefined;

/** What a message given to `sendMail` may carry besides its fields: see `handedOver` in deliverEmail. */
type HandOver = { handedOver?: () => void };

function transporter(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    // Given to the transport itself: nodemailer.createTransport(url, options) reads the URL alone
    // and takes its second argument as defaults for each message, not as the transport's settings.
    const created = nodemailer.createTransport(new SMTPTransport({ url, ...SMTP_TIMEOUTS }));
    // The message's stream is read into the SMTP conversation only after the server's go-ahead for
    // the data (354): its end is the moment the whole message was handed over, and only the
    // server's answer to it is left to come. This holds while nothing reads the stream before
    // that: no `newline` option and no DKIM signing on this transport (both read it eagerly).
    created.use("stream", (mail, done) => {
      const { handedOver } = mail.data as HandOver;
      if (handedOver) mail.message.processFunc((stream) => stream.once("end", handedOver));
      done();
    });
    transport = { url, transporter: created };
  }
  return transport.transporter;
}

/** The SMTP commands whose 5xx refusal is about this message (its recipient or content), not the setup. */
const MESSAGE_COMMANDS = new Set(["RCPT TO", "DATA"]);

/**
 * Sends one queued email over SMTP. A permanent refusal of this message (a 5xx reply to its
 * recipient or its content, such as 550 for an unknown address) fails it at once. Anything
 * else is retried: a 4xx, no connection, a timeout, and also a 5xx to the login or the sender
 * address, which is a setting to fix and would otherwise fail every message. `handedOver` is
 * called once the whole message has gone to the server: a failure after that without the
 * server's answer (see `answeredByServer`) may have been delivered all the same.
 */
export const deliverEmail = async (
  row: Parameters<Deliverer>[0],
  { handedOver }: Partial<DeliveryContext> & HandOver = {},
): Promise<void> => {
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
      headers: message.headers,
      ...({ handedOver } satisfies HandOver),
    });
  } catch (error) {
    const { responseCode, command } = error as { responseCode?: unknown; command?: unknown };
    const permanent =
      typeof responseCode === "number" &&
      responseCode >= 500 &&
      responseCode < 600 &&
      typeof command === "string" &&
      MESSAGE_COMMANDS.has(command);
    if (permanent) throw new GiveUp((error as Error).message);
    // The mail server refused the site's login: no retry mends that until SMTP_URL is fixed.
    if ((error as { code?: unknown }).code === "EAUTH") {
      throw new SettingRefused(
        `The mail server refused the user or password in SMTP_URL (${(error as Error).message}). Fix SMTP_URL and restart: the waiting emails are sent then.`,
        "SMTP_URL",
      );
    }
    throw error;
  }
};

/** Whether a failed send ended with the mail server's own answer (a refusal), not a lost connection or a silence. */
export function answeredByServer(error: unknown): boolean {
  return error instanceof GiveUp || typeof (error as { responseCode?: unknown }).responseCode === "number";
}

/** SMTP_URL as it may be shown: without its password. */
export function shownSmtpUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}${parsed.password ? ":…" : ""}@` : "";
  return `${parsed.protocol}//${user}${parsed.host}`;
}

/**
 * Sends one email at once, not through the outbox, for an operator checking the mail settings
 * (npm run email:test): the SMTP server's answer, or its refusal as it gave it.
 */
export async function sendTestEmail(to: string): Promise<string> {
  const url = config().mail.smtpUrl;
  if (!url) throw new Error("SMTP_URL is not set");
  const sent = (await transporter(url).sendMail({
    from: config().mail.from,
    to,
    subject: "Hopewell test email",
    text: "This is a test email from the Hopewell members' site. Its mail settings (SMTP_URL, MAIL_FROM) work: members will get their sign-in codes and links.",
  })) as { response?: string };
  transport?.transporter.close();
  transport = undefined;
  return sent.response ?? "accepted";
}
