import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config.server";
import type { Deliverer } from "../outbox/outbox.server";
import type { EmailMessage } from "../outbox/outbox.server";

let transport: { url: string; transporter: Transporter } | undefined;

function transporter(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    transport = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  return transport.transporter;
}

/** Sends one queued email over SMTP; a failure leaves it in the outbox for a retry. */
export const deliverEmail: Deliverer = async (row) => {
  const url = config().mail.smtpUrl;
  if (!url) throw new Error("SMTP_URL is not set");
  const message = row.payload as EmailMessage;
  await transporter(url).sendMail({
    from: config().mail.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
};
