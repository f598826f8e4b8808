/**
 * Sends a test email through the site's mail settings (SMTP_URL, MAIL_FROM), at once rather than
 * through the outbox, and says what the SMTP server answered:
 *
 *   npm run email:test -- you@example.org
 */
import "./settings";
import { parseArgs } from "node:util";
import { z } from "zod";
import { sendTestEmail, shownSmtpUrl } from "~/platform/mail/mailer.server";
import { cliConfig, fail } from "./cli";

const USAGE = "Usage: npm run email:test -- ADDRESS   (sends a test email to ADDRESS through SMTP_URL)";

async function main() {
  let positionals: string[];
  try {
    positionals = parseArgs({ allowPositionals: true, strict: true }).positionals;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (positionals.length !== 1 || !z.email().safeParse(positionals[0]).success) fail(USAGE);
  const to = positionals[0]!;
  const cfg = cliConfig({ database: false });
  if (!cfg.mail.smtpUrl) {
    fail(
      "SMTP_URL is not set, so the site sends no email (it waits in the outbox). Set it in .env, e.g. SMTP_URL=smtps://user:password@smtp.example.org:465, and run this again.",
    );
  }
  const server = shownSmtpUrl(cfg.mail.smtpUrl);
  try {
    const answer = await sendTestEmail(to);
    console.log(`Sent a test email to ${to} from ${cfg.mail.from} through ${server}; the server answered: ${answer}`);
    console.log(
      "If it does not arrive within a few minutes, look in the spam folder, and ask the mail provider whether MAIL_FROM's domain may be sent from this account.",
    );
  } catch (error) {
    fail(
      `Could not send through SMTP_URL (${server}): ${(error as Error).message}. Check the host, port, user and password in SMTP_URL (smtps:// for port 465, smtp:// for 587 or 25), and that MAIL_FROM is an address the account may send from.`,
    );
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
