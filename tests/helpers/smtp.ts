import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** The addresses a received email was sent to, as text. */
export function recipients(mail: ParsedMail): string {
  const to = mail.to;
  if (!to) return "";
  return (Array.isArray(to) ? to : [to]).map((address) => address.text).join(", ");
}

/** A real SMTP server on localhost that keeps what it receives. */
export async function startSmtpServer(port = 0) {
  const messages: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.server.address() as { port: number };
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    async waitForMessage(predicate: (mail: ParsedMail) => boolean, timeoutMs = 15_000): Promise<ParsedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching email within ${timeoutMs} ms (got ${messages.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
