import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESEARCH_MESSAGES } from "~/features/submissions/submissions.messages";
import { createEvent } from "~/platform/db/factories";
import { research } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";
import { startS3Server } from "../../helpers/s3";

// The same upload rules as on local disk, with the files in a local S3-compatible server.
const db = withTestDatabase();
const s3 = await startS3Server();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-research-s3-"));
const app = withAppServer({ DATA_DIR: dataDir, ...s3.env, S3_PREFIX: "hopewell" });
afterAll(async () => {
  await s3.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

let eventId = "";
beforeAll(async () => {
  eventId = (await createEvent(db(), { title: "Silver Fever", date: "2025-08-15", status: "past" })).id;
});

function upload(cookie: string, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("submissionKey", randomUUID());
  form.set("eventId", eventId);
  form.set("sources", fields.sources ?? "The assayer's ledger.");
  form.set("research", "The ore glows faintly when the lamps go out.");
  form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  return fetch(`${app().url}/research/upload`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: app().url },
    body: form,
  });
}

/** The member's objects in the bucket, read from s3rver's own folder. */
function storedObjects(userId: string): string[] {
  const dir = path.join(s3.directory, "hopewell-test", "hopewell", "research", userId);
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith("._S3rver_object"))
        .map((name) => name.replace("._S3rver_object", ""))
    : [];
}

describe("research uploads on S3 storage", () => {
  it("stores the file in the bucket under the prefix, records it, and serves it safely", async () => {
    const member = await signedInMember("player");
    expect((await upload(member.cookie, { name: "ledger.pdf", bytes: PDF })).status).toBe(200);
    const [row] = await db().select().from(research).where(eq(research.userId, member.id));
    expect(row).toMatchObject({ fileType: "application/pdf", fileSize: PDF.length });
    expect(storedObjects(member.id)).toEqual([path.basename(row!.fileKey)]);
    expect(fs.existsSync(path.join(dataDir, "files"))).toBe(false);

    const response = await fetch(`${app().url}/research/${row!.id}/file`, { headers: { Cookie: member.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Length")).toBe(String(PDF.length));
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="ledger.pdf"/);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PDF);
    expect(
      (
        await fetch(`${app().url}/research/${row!.id}/file`, {
          headers: { Cookie: (await signedInMember("player")).cookie },
        })
      ).status,
    ).toBe(404);
  });

  it("keeps no object and no row for a refused, oversized or failed upload", async () => {
    const member = await signedInMember("player");
    const refused = await upload(member.cookie, {
      name: "picture.png",
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
    });
    expect((await refused.json()).message).toBe(RESEARCH_MESSAGES.fileType);
    const big = await upload(member.cookie, {
      name: "big.png",
      bytes: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).message).toBe(RESEARCH_MESSAGES.fileSize);

    await db().execute(
      sql`alter table research add constraint research_test_s3 check (length(sources) < 10) not valid`,
    );
    try {
      const failed = await upload(
        member.cookie,
        { name: "a.png", bytes: PNG },
        { sources: "far too long for the test constraint" },
      );
      expect(failed.status).toBe(500);
    } finally {
      await db().execute(sql`alter table research drop constraint research_test_s3`);
    }
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toEqual([]);
    expect(storedObjects(member.id)).toEqual([]);
  });
});
