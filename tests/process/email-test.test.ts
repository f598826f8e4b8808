import { describe, expect, it } from "vitest";
import { run } from "../helpers/processes";
import { startSmtpServer } from "../helpers/smtp";

/** `npm run email:test`: the guide's way to see that the mail settings work before a member needs them. */
async function emailTest(args: string[], env: Record<string, string>, unset: string[] = []) {
  const child = run(process.execPath, ["--import", "tsx", "scripts/email-test.ts", ...args], env, { unset });
  const { code } = await child.exited;
  return { code, output: child.output() };
}

describe("npm run email:test", () => {
  it("sends one email through SMTP_URL at once and says what the server answered", async () => {
    const smtp = await startSmtpServer();
    const sent = await emailTest(["volunteer@example.org"], {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Hopewell <no-reply@club.test>",
    });
    expect(sent.code, sent.output).toBe(0);
    expect(sent.output).toContain(
      `Sent a test email to volunteer@example.org from Hopewell <no-reply@club.test> through smtp://127.0.0.1:${smtp.port}; the server answered: 250`,
    );
    const mail = await smtp.waitForMessage((message) => message.subject === "Hopewell test email");
    expect(mail.from?.text).toContain("no-reply@club.test");
  });

  it("names SMTP_URL and what to check when the server refuses, and when it is not set", async () => {
    const smtp = await startSmtpServer(0, { refuseSender: 553 });
    const refused = await emailTest(["volunteer@example.org"], { SMTP_URL: smtp.url });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /Could not send through SMTP_URL \(smtp:\/\/127\.0\.0\.1:\d+\): .*553.*Check the host, port, user and password in SMTP_URL/,
    );
    expect(refused.output).not.toMatch(/\n\s+at /);

    // A login the server refuses (this one takes none): the password is not repeated.
    const login = await emailTest(["volunteer@example.org"], {
      SMTP_URL: `smtp://hopewell:Secret-pass-1@127.0.0.1:${smtp.port}`,
    });
    expect(login.code).toBe(1);
    expect(login.output).toContain(
      `Could not send through SMTP_URL (smtp://hopewell:…@127.0.0.1:${smtp.port}): Invalid login: 535`,
    );
    expect(login.output).not.toContain("Secret-pass-1");

    const unset = await emailTest(["volunteer@example.org"], {}, ["SMTP_URL"]);
    expect(unset.code).toBe(1);
    expect(unset.output).toContain("SMTP_URL is not set, so the site sends no email (it waits in the outbox).");
  });
});
