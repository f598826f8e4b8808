import { randomUUID } from "node:crypto";
import net from "node:net";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { RESEARCH_MESSAGES } from "~/features/submissions/submissions.messages";
import { createEvent } from "~/platform/db/factories";
import { letters, research, sessions } from "~/platform/db/schema";
import { withAppServer } from "../helpers/app-server";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { sendRaw as sendRawTo, type RawAnswer } from "../helpers/raw-http";
import { signedInMember } from "../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

const MiB = 1024 * 1024;
const PAGE_TITLE = "Too Much to Carry · Hopewell";
const PAGE_TEXT = "a form carries at most 1\u00a0MB, and a research upload one file of at most 5\u00a0MB";

const sendRaw = (path: string, options: Parameters<typeof sendRawTo>[2]) => sendRawTo(app().url, path, options);

function expectPromptRefusal(answer: RawAnswer, bodyBytes: number) {
  expect(answer.status).toBe(413);
  expect(answer.headers.connection).toBe("close");
  expect(answer.answeredMs).toBeLessThan(2_000);
  // Closed soon after the answer (the linger, http/pipeline/body-limit.ts), not left open while the rest is sent.
  expect(answer.closedAfterMs).toBeLessThan(5_000);
  // The server stopped reading long before the end of the body.
  expect(answer.sent).toBeLessThan(bodyBytes / 2);
}

let eventId = "";
beforeAll(async () => {
  eventId = (await createEvent(db(), { title: "Silver Fever", date: "2025-08-15", status: "past" })).id;
});

describe("request body limits", () => {
  it("refuses an oversized sign-in form at once, by its length or as it streams, with a page, and closes the connection", async () => {
    const bodyBytes = 50 * MiB;
    // Side by side: each waits out the server's linger before its connection closes.
    const [byLength, streamed] = await Promise.all([
      sendRaw("/auth", { bodyBytes, headers: { Accept: "text/html,application/xhtml+xml" } }),
      sendRaw("/auth", { bodyBytes, chunked: true }),
    ]);
    expectPromptRefusal(byLength, bodyBytes);
    expect(byLength.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(byLength.body).toContain(`<title>${PAGE_TITLE}</title>`);
    expect(byLength.body).toContain('<h1 class="mt-4 text-3xl">Too Much to Carry</h1>');
    expect(byLength.body).toContain(PAGE_TEXT);
    expect(byLength.body).toContain('<a href="/" class="btn btn-secondary">Back to town</a>');
    // The site's stylesheet: the built one in production, the source's under the tests.
    expect(byLength.body).toMatch(/<link rel="stylesheet" href="\/(assets|app)\/[^"]+\.css">/);

    expectPromptRefusal(streamed, bodyBytes);
    expect(streamed.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(streamed.body).toContain(PAGE_TEXT);
  });

  it("refuses an oversized letter without saving it, and still takes a normal one sent in chunks", async () => {
    const member = await signedInMember("player");
    const bodyBytes = 20 * MiB;
    const answers = await Promise.all(
      [false, true].map((chunked) =>
        sendRaw("/letters", { bodyBytes, chunked, headers: { Cookie: member.cookie, Accept: "text/html" } }),
      ),
    );
    for (const answer of answers) {
      expectPromptRefusal(answer, bodyBytes);
      expect(answer.body).toContain(PAGE_TEXT);
    }
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toEqual([]);

    // A body without a Content-Length, within the limit, reaches the action whole.
    const fields = new URLSearchParams({
      submissionKey: randomUUID(),
      recipient: "Abigail Voss",
      body: "Meet me at the well after dark.",
    });
    const encoded = new TextEncoder().encode(fields.toString());
    const chunkedLetter = await fetch(`${app().url}/letters`, {
      method: "POST",
      headers: { Origin: app().url, Cookie: member.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(encoded.subarray(0, 20));
          controller.enqueue(encoded.subarray(20));
          controller.close();
        },
      }),
      duplex: "half",
      redirect: "manual",
    } as RequestInit);
    expect(chunkedLetter.status).toBe(200);
    const rows = await db().select().from(letters).where(eq(letters.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recipient: "Abigail Voss", body: "Meet me at the well after dark." });
  });

  it("takes a form just under the limit and refuses one just over it", async () => {
    const member = await signedInMember("player");
    // The action reads it and answers with its own message about the letter's length.
    const under = await postForm(
      app().url,
      "/letters",
      { submissionKey: randomUUID(), recipient: "Abigail Voss", body: "x".repeat(MiB - 200) },
      member.cookie,
    );
    expect(under.status).toBe(400);
    expect(await under.text()).toContain("Please keep your letter to 10,000 characters or fewer");
    const over = await postForm(
      app().url,
      "/letters",
      { submissionKey: randomUUID(), recipient: "Abigail Voss", body: "x".repeat(MiB) },
      member.cookie,
    );
    expect(over.status).toBe(413);
    expect(await over.text()).toContain(PAGE_TEXT);
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toEqual([]);
  });

  it("refuses an upload past the research form's own limit, and leaves a file just past 5 MB to the form's message", async () => {
    const member = await signedInMember("player");
    const form = (bytes: number) => {
      const body = new FormData();
      body.set("submissionKey", randomUUID());
      body.set("eventId", eventId);
      body.set("sources", "The assayer's ledger.");
      body.set("research", "The ore glows faintly when the lamps go out.");
      body.set("file", new Blob([new Uint8Array(bytes)]), "ore.png");
      return body;
    };
    for (const path of ["/research/upload", "/research", "/research.data"]) {
      const response = await fetch(app().url + path, {
        method: "POST",
        headers: { Origin: app().url, Cookie: member.cookie, Accept: "text/html" },
        body: form(7 * MiB),
        redirect: "manual",
      });
      expect(response.status, path).toBe(413);
      expect(response.headers.get("Connection"), path).toBe("close");
      expect(await response.text(), path).toContain(PAGE_TEXT);
    }
    const nearly = await fetch(`${app().url}/research/upload`, {
      method: "POST",
      headers: { Origin: app().url, Cookie: member.cookie },
      body: form(5 * MiB + 100_000),
    });
    expect(nearly.status).toBe(413);
    expect(await nearly.json()).toEqual({ message: "File size must be less than 5MB" });
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toEqual([]);
    // Elsewhere the same body is a form's and too big.
    const elsewhere = await fetch(`${app().url}/research/${randomUUID()}/file`, {
      method: "POST",
      headers: { Origin: app().url, Cookie: member.cookie },
      body: form(2 * MiB),
    });
    expect(elsewhere.status).toBe(413);
  });

  it("refuses before the body is sent when the client asks first (Expect: 100-continue)", async () => {
    const { port } = new URL(app().url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let text = "";
      socket.on("data", (data) => (text += data.toString()));
      socket.on("error", reject);
      socket.on("close", () => resolve(text));
      socket.setTimeout(5_000, () => socket.destroy(new Error("timed out")));
      socket.write(
        `POST /auth HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${1024 * MiB}\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).not.toContain("100 Continue");
  });

  it("refuses an upload without a session or with the wrong role before reading it, answering in full and then closing", async () => {
    const bodyBytes = 5 * MiB;
    const multipart = "multipart/form-data; boundary=----hopewell";
    const applicant = await signedInMember("applicant");
    // Side by side: each waits out the server's linger before its connection closes.
    const answers = await Promise.all([
      sendRaw("/research", { bodyBytes, contentType: multipart }),
      sendRaw("/research/upload", { bodyBytes, contentType: multipart }),
      sendRaw("/costume", { bodyBytes, contentType: multipart, headers: { Cookie: applicant.cookie } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 403]);
    for (const answer of answers) {
      expect(answer.headers.connection).toBe("close");
      // Closed soon after the answer (the linger, http/pipeline/body-limit.ts), not left open while the rest is sent.
      expect(answer.closedAfterMs).toBeLessThan(5_000);
    }
  });

  it("tells a client that asks first to send its upload only when it will be read (Expect: 100-continue)", async () => {
    const { port } = new URL(app().url);
    // A multipart form without a field: the action reads it, and refuses it.
    const form = "------hopewell--\r\n";
    const proceed = "HTTP/1.1 100 Continue\r\n\r\n";
    const ask = (cookie: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1");
        let text = "";
        let sent = false;
        socket.on("data", (data) => {
          text += data.toString();
          if (!sent && text.startsWith(proceed)) {
            sent = true;
            socket.write(form);
          }
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(text));
        socket.setTimeout(5_000, () => socket.destroy(new Error("timed out")));
        socket.write(
          `POST /research/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${app().url}\r\nCookie: ${cookie}\r\n` +
            `Content-Type: multipart/form-data; boundary=----hopewell\r\nContent-Length: ${form.length}\r\nConnection: close\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
    const signedOut = await ask("");
    expect(signedOut).toMatch(/^HTTP\/1\.1 401 /);
    expect(signedOut).not.toContain("100 Continue");
    const member = await signedInMember("player");
    const signedIn = await ask(member.cookie);
    expect(signedIn).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
    expect(signedIn).toContain(RESEARCH_MESSAGES.fillAll);
  });

  it("closes a connection whose body is longer than its Content-Length, and keeps serving", async () => {
    const { port } = new URL(app().url);
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      socket.on("error", () => {});
      // Reading is what notices the server closing.
      socket.resume();
      socket.on("close", () => resolve());
      socket.setTimeout(10_000, () => socket.destroy());
      socket.write(
        `POST /auth HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\n\r\n${"a".repeat(2 * MiB)}`,
      );
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await fetch(`${app().url}/auth`)).status).toBe(200);
  });

  it("still signs a member in after all that", async () => {
    const member = await signedInMember("player");
    await db().delete(sessions).where(eq(sessions.userId, member.id));
    const response = await postForm(app().url, "/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: "/profile",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile");
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(1);
  });
});
