import { setTimeout as sleep } from "node:timers/promises";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** The addresses a received email was sent to, as text. */
export function recipients(mail: ParsedMail): string {
  const to = mail.to;
  if (!to) return "";
  return (Array.isArray(to) ? to : [to]).map((address) => address.text).join(", ");
}

/** A header as the mail carries it, unfolded (mailparser folds the List-* headers into one structured "list" value). */
export function headerOf(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((entry) => entry.key === name.toLowerCase())?.line;
  return line
    ?.replace(/\r?\n[ \t]+/g, " ")
    .slice(name.length + 1)
    .trim();
}

/** How long a fixed port (the browser tests' one) is waited for while another test file holds it. */
const PORT_WAIT_MS = 60_000;

/**
 * Listens on `port`. A fixed port held by another test file's server (the browser tests share
 * one) is waited for, so those files take turns instead of failing.
 */
async function listen(server: SMTPServer, port: number): Promise<void> {
  const deadline = Date.now() + (port === 0 ? 0 : PORT_WAIT_MS);
  for (;;) {
    const error = await new Promise<Error | null>((resolve) => {
      // Each try takes its own listeners off again, so waiting long does not pile them up.
      const onListening = () => {
        server.off("error", onError);
        resolve(null);
      };
      const onError = (err: Error) => {
        server.server.off("listening", onListening);
        resolve(err);
      };
      server.once("error", onError);
      server.server.once("listening", onListening);
      server.listen(port, "127.0.0.1");
    });
    if (!error) return;
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || Date.now() > deadline) throw error;
    await sleep(250);
  }
}

/**
 * A real SMTP server on localhost that keeps what it receives. `refuse` may answer a
 * recipient with an SMTP reply code (550 for "no such user", 451 for "try again later").
 * While `hang` returns true, a new connection is accepted and never greeted, as by a hung
 * server: the client waits for a greeting that never comes (`held` counts those connections).
 * `delayMs` answers each message's data that much later, as a slow server does (a function of
 * the message: some later than others). `holdData` receives a message's data and never answers
 * it, as a server that stops mid-DATA: whether such a message was delivered is unknown to the
 * sender, so `dataHeld` keeps it apart from `messages`. `holdRecipient` never answers a recipient
 * (`recipientsHeld` counts them): the message was never handed over.
 */
export async function startSmtpServer(
  port = 0,
  {
    refuse,
    refuseSender,
    hang,
    delayMs = 0,
    holdData,
    holdRecipient,
  }: {
    refuse?: (address: string) => number | undefined;
    refuseSender?: number;
    hang?: () => boolean;
    delayMs?: number | ((mail: ParsedMail) => number);
    holdData?: (mail: ParsedMail) => boolean;
    holdRecipient?: (address: string) => boolean;
  } = {},
) {
  const messages: ParsedMail[] = [];
  const dataHeld: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  const held = { count: 0, recipients: 0 };
  /** Waits, woken by each thing the server holds, until `done`; fails with `failure` after `timeoutMs`. */
  async function waitUntil(done: () => boolean, failure: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(failure);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A held connection would keep close() waiting for its 30 s default.
    closeTimeout: 200,
    onConnect(_session, callback) {
      if (!hang?.()) return callback();
      held.count++;
      for (const wake of waiters.splice(0)) wake();
    },
    onMailFrom(_address, _session, callback) {
      if (refuseSender === undefined) return callback();
      callback(Object.assign(new Error("Sender address rejected"), { responseCode: refuseSender }));
    },
    onRcptTo(address, _session, callback) {
      if (holdRecipient?.(address.address)) {
        held.recipients++;
        for (const wake of waiters.splice(0)) wake();
        return;
      }
      const code = refuse?.(address.address);
      if (code === undefined) return callback();
      callback(
        Object.assign(new Error(code >= 500 ? "Mailbox unavailable" : "Try again later"), { responseCode: code }),
      );
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (holdData?.(mail)) {
            dataHeld.push(mail);
            for (const wake of waiters.splice(0)) wake();
            return;
          }
          const delay = typeof delayMs === "number" ? delayMs : delayMs(mail);
          if (delay > 0) await sleep(delay);
          messages.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await listen(server, port);
  const address = server.server.address() as { port: number };
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    /** Messages whose data was received and never answered (see `holdData`). */
    dataHeld,
    /** Recipients never answered (see `holdRecipient`). */
    get recipientsHeld() {
      return held.recipients;
    },
    /** Connections accepted and never greeted (see `hang`). */
    get held() {
      return held.count;
    },
    /** Resolves once `count` connections are held. */
    waitForHeld: (count = 1, timeoutMs = 30_000) =>
      waitUntil(() => held.count >= count, `no connection to the hung SMTP server within ${timeoutMs} ms`, timeoutMs),
    /** Resolves once `count` messages' data is held unanswered. */
    waitForDataHeld: (count = 1, timeoutMs = 30_000) =>
      waitUntil(() => dataHeld.length >= count, `no message's data held within ${timeoutMs} ms`, timeoutMs),
    /** Resolves once `count` recipients are held unanswered. */
    waitForRecipientsHeld: (count = 1, timeoutMs = 30_000) =>
      waitUntil(() => held.recipients >= count, `no recipient held within ${timeoutMs} ms`, timeoutMs),
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
    /** Ends every open connection without a word, as a server that crashes does (close() says 421 first). */
    hangUp: () => {
      for (const connection of (server as unknown as { connections: Set<{ close(): void }> }).connections)
        connection.close();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
