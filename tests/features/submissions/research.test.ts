import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESEARCH_MESSAGES } from "~/features/submissions/submissions.messages";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { createEvent } from "~/platform/db/factories";
import { research } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-research-"));
const app = withAppServer({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// A real 1x1 PNG and the start of a real PDF.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);

let eventId = "";
beforeAll(async () => {
  eventId = (await createEvent(db(), { title: "Silver Fever", date: "2025-08-15", status: "past" })).id;
});

function upload(cookie: string, file: { name: string; bytes: Buffer } | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("submissionKey", fields.submissionKey ?? randomUUID());
  form.set("eventId", fields.eventId ?? eventId);
  form.set("sources", fields.sources ?? "The assayer's ledger; Professor Quill's notes.");
  form.set("research", fields.research ?? "The ore glows faintly when the lamps go out.");
  for (const [key, value] of Object.entries(fields))
    if (!["submissionKey", "eventId", "sources", "research"].includes(key)) form.set(key, value);
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  return fetch(`${app().url}/research/upload`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: app().url },
    body: form,
  });
}

function storedFiles(userId: string): string[] {
  const dir = path.join(dataDir, "files", "research", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** What uploads left in DATA_DIR/uploads, where each is written as it arrives: nothing, once answered. */
function spooled(): string[] {
  const dir = path.join(dataDir, "uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe("research uploads", () => {
  it("stores the file privately under the member's folder and records it once", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const key = randomUUID();
    const first = await upload(
      member.cookie,
      { name: "ore sample.PNG", bytes: PNG },
      { submissionKey: key, userId: other.id },
    );
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ submitted: true });
    await upload(member.cookie, { name: "ore sample.PNG", bytes: PNG }, { submissionKey: key });

    const rows = await db().select().from(research).where(eq(research.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ fileName: "ore sample.PNG", fileType: "image/png", fileSize: PNG.length, eventId });
    expect(rows[0]!.fileKey).toMatch(new RegExp(`^research/${member.id}/[0-9a-f]{32}\\.png$`));
    expect(storedFiles(member.id)).toEqual([path.basename(rows[0]!.fileKey)]);
    expect(fs.readFileSync(path.join(dataDir, "files", rows[0]!.fileKey))).toEqual(PNG);
    expect(storedFiles(other.id)).toEqual([]);
  });

  it("judges the type by content, not by name, and keeps no trace of a refused file", async () => {
    const member = await signedInMember("player");
    const cases: [{ name: string; bytes: Buffer } | null, string][] = [
      [
        { name: "picture.png", bytes: Buffer.from("<html><script>alert(1)</script></html>") },
        RESEARCH_MESSAGES.fileType,
      ],
      [{ name: "report.pdf", bytes: ELF }, RESEARCH_MESSAGES.fileType],
      [{ name: "tool.exe", bytes: PNG }, RESEARCH_MESSAGES.fileType],
      [{ name: "noextension", bytes: PNG }, RESEARCH_MESSAGES.fileType],
      [null, RESEARCH_MESSAGES.fillAll],
      [{ name: "big.png", bytes: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) }, RESEARCH_MESSAGES.fileSize],
    ];
    for (const [file, message] of cases) {
      const response = await upload(member.cookie, file);
      expect(response.status, file?.name ?? "no file").toBeGreaterThanOrEqual(400);
      expect((await response.json()).message).toBe(message);
    }
    expect((await (await upload(member.cookie, { name: "a.png", bytes: PNG }, { sources: " " })).json()).message).toBe(
      RESEARCH_MESSAGES.fillAll,
    );
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toEqual([]);
    expect(storedFiles(member.id)).toEqual([]);
    expect(spooled()).toEqual([]);
  });

  it("takes a file of exactly 5 MB, named in any script, and refuses one byte more; the copy it arrived in goes either way", async () => {
    const member = await signedInMember("player");
    const exactly = Buffer.concat([PDF, Buffer.alloc(UPLOAD_MAX_BYTES - PDF.length, 0x20)]);
    const taken = await upload(member.cookie, { name: "Prüfbericht – 金鉱.pdf", bytes: exactly });
    expect(taken.status).toBe(200);
    const [row] = await db().select().from(research).where(eq(research.userId, member.id));
    expect(row).toMatchObject({
      fileName: "Prüfbericht – 金鉱.pdf",
      fileType: "application/pdf",
      fileSize: UPLOAD_MAX_BYTES,
    });
    // Compared as bytes: a deep comparison of 5 MB takes minutes.
    expect(fs.readFileSync(path.join(dataDir, "files", row!.fileKey)).equals(exactly)).toBe(true);

    const over = await upload(member.cookie, { name: "over.pdf", bytes: Buffer.concat([exactly, Buffer.from(" ")]) });
    expect(over.status).toBe(413);
    expect((await over.json()).message).toBe(RESEARCH_MESSAGES.fileSize);
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toHaveLength(1);
    expect(spooled()).toEqual([]);
  });

  it("never lets a file name choose where the file goes", async () => {
    const member = await signedInMember("player");
    expect((await upload(member.cookie, { name: "../../../../etc/cron.d/evil.pdf", bytes: PDF })).status).toBe(200);
    const [row] = await db().select().from(research).where(eq(research.userId, member.id));
    expect(row!.fileName).toBe("evil.pdf");
    expect(row!.fileKey.startsWith(`research/${member.id}/`)).toBe(true);
    expect(fs.existsSync("/etc/cron.d/evil.pdf")).toBe(false);
  });

  it("removes the stored file when the database write fails", async () => {
    const member = await signedInMember("player");
    await db().execute(
      sql`alter table research add constraint research_test_short check (length(sources) < 10) not valid`,
    );
    try {
      const response = await upload(
        member.cookie,
        { name: "a.png", bytes: PNG },
        { sources: "far too long for the test constraint" },
      );
      expect(response.status).toBe(500);
      expect((await response.json()).message).toBe(RESEARCH_MESSAGES.failed);
      expect(storedFiles(member.id)).toEqual([]);
    } finally {
      await db().execute(sql`alter table research drop constraint research_test_short`);
    }
  });

  it("serves a file to its author, cast and managers only, safely", async () => {
    const author = await signedInMember("player");
    await upload(author.cookie, { name: "map.png", bytes: PNG });
    const [row] = await db().select().from(research).where(eq(research.userId, author.id));
    const url = `${app().url}/research/${row!.id}/file`;
    const mine = await fetch(url, { headers: { Cookie: author.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Content-Type")).toBe("image/png");
    expect(mine.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(mine.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(mine.headers.get("Content-Disposition")).toMatch(/^inline; filename="map.png"/);
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(PNG);

    for (const role of ["cast", "manager"] as const) {
      expect((await fetch(url, { headers: { Cookie: (await signedInMember(role)).cookie } })).status).toBe(200);
    }
    expect((await fetch(url, { headers: { Cookie: (await signedInMember("player")).cookie } })).status).toBe(404);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(302);
    expect(
      (await fetch(`${app().url}/research/${randomUUID()}/file`, { headers: { Cookie: author.cookie } })).status,
    ).toBe(404);
    // Nothing uploaded is reachable as a public file.
    expect((await fetch(`${app().url}/${row!.fileKey}`)).status).toBe(404);
  });

  it("cuts a 1 GB upload off near the limit without holding it in memory", async () => {
    const member = await signedInMember("player");
    const boundary = "----hopewell-big";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="submissionKey"\r\n\r\n${randomUUID()}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 7);
    const target = new URL(`${app().url}/research/upload`);
    const rssBefore = process.memoryUsage().rss;
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: {
            Cookie: member.cookie,
            Origin: app().url,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
            "Content-Length": String(1024 ** 3),
          },
        },
        (res) => {
          answered = true;
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        },
      );
      req.on("error", (error) => (answered ? undefined : reject(error)));
      req.write(head);
      const pump = () => {
        while (!answered && sent < 1024 ** 3) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(storedFiles(member.id)).toEqual([]);
    expect(spooled()).toEqual([]);
  });
});
