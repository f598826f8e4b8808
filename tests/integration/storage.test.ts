import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, overrideConfig, parseConfig } from "~/platform/config.server";
import { createEvent, createProfile, researchValues } from "~/platform/db/factories";
import { research } from "~/platform/db/schema";
import {
  listFiles,
  openFile,
  pathForKey,
  readFile,
  removeFile,
  researchKey,
  saveFile,
  storageKind,
} from "~/platform/storage/storage.server";
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from "~/platform/storage/sweep.server";
import { withTestDatabase } from "../helpers/db";
import { startS3Server } from "../helpers/s3";

const db = withTestDatabase();
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const HOUR = 60 * 60_000;

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function keys(): Promise<string[]> {
  const found: string[] = [];
  for await (const file of listFiles()) found.push(file.key);
  return found.sort();
}

let userId = "";
let eventId = "";
beforeAll(async () => {
  userId = (await createProfile(db())).id;
  eventId = (await createEvent(db(), { title: "Silver Fever", date: "2025-08-15", status: "past" })).id;
});

type Backend = {
  name: "local" | "s3";
  setUp: () => Promise<void>;
  tearDown: () => Promise<void>;
  /** Makes a stored file look written `ms` ago. */
  age: (key: string, ms: number) => void;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-storage-"));
const originalConfig = config();
const s3DataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-storage-s3-"));
afterAll(() => {
  for (const dir of [dataDir, s3DataDir]) fs.rmSync(dir, { recursive: true, force: true });
});

let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
const backends: Backend[] = [
  {
    name: "local",
    setUp: async () => overrideConfig({ dataDir, storage: { kind: "local" } }),
    tearDown: async () => overrideConfig(originalConfig),
    age: (key, ms) => fs.utimesSync(pathForKey(key), new Date(Date.now() - ms), new Date(Date.now() - ms)),
  },
  {
    name: "s3",
    setUp: async () => {
      s3 = await startS3Server();
      overrideConfig({ dataDir: s3DataDir, storage: parseConfig({ ...s3.env, S3_PREFIX: "club/files" }).storage });
    },
    tearDown: async () => {
      overrideConfig(originalConfig);
      await s3?.close();
    },
    age: (key, ms) => {
      const file = s3!.objectPath("hopewell-test", `club/files/${key}`);
      fs.utimesSync(file, new Date(Date.now() - ms), new Date(Date.now() - ms));
    },
  },
];

describe.each(backends)("file storage: $name", (backend) => {
  beforeAll(backend.setUp);
  afterAll(backend.tearDown);

  it("stores, lists, serves and removes a file under one interface", async () => {
    expect(storageKind()).toBe(backend.name);
    const key = researchKey(userId, "png");
    await saveFile(key, new Blob([PNG]), { contentType: "image/png" });
    const opened = await openFile(key);
    expect(opened?.size).toBe(PNG.length);
    expect(await text(opened!.stream)).toEqual(PNG);
    expect(await text(readFile(key))).toEqual(PNG);
    expect(await keys()).toContain(key);
    await removeFile(key);
    expect(await openFile(key)).toBeNull();
    expect(await keys()).not.toContain(key);
    // On S3 nothing at all is written to local disk.
    if (backend.name === "s3") expect(fs.existsSync(path.join(s3DataDir, "files"))).toBe(false);
  });

  it("leaves nothing under the key when the bytes stop halfway", async () => {
    const key = researchKey(userId, "pdf");
    async function* broken() {
      yield Buffer.alloc(64 * 1024, 1);
      throw new Error("connection reset by the client");
    }
    await expect(saveFile(key, Readable.from(broken()), { size: 128 * 1024 })).rejects.toThrow();
    // A stream shorter than announced is refused too, not stored short.
    await expect(saveFile(key, Readable.from([Buffer.alloc(10)]), { size: 20 })).rejects.toThrow();
    expect(await openFile(key)).toBeNull();
    expect(await keys()).not.toContain(key);
    if (backend.name === "local") expect(fs.readdirSync(path.dirname(pathForKey(key)))).toEqual([]);
  });

  it("sweeps stale temporary and unreferenced files, keeping fresh and referenced ones", async () => {
    const referenced = researchKey(userId, "png");
    const orphan = researchKey(userId, "png");
    const freshOrphan = researchKey(userId, "png");
    for (const key of [referenced, orphan, freshOrphan]) await saveFile(key, PNG);
    await db()
      .insert(research)
      .values(
        researchValues(userId, eventId, { key: referenced, name: "notes.png", type: "image/png", size: PNG.length }),
      );
    backend.age(referenced, 2 * ORPHAN_GRACE_MS);
    backend.age(orphan, 2 * ORPHAN_GRACE_MS);

    // What a kill -9 mid-upload leaves on local disk: temporary files beside the real ones.
    const folder = path.join(config().dataDir, "files", "research", userId);
    fs.mkdirSync(folder, { recursive: true });
    const stalePartial = path.join(folder, "0123456789abcdef.png.4242.deadbeef.partial");
    const freshPartial = path.join(folder, "fedcba9876543210.png.4243.cafebabe.partial");
    fs.writeFileSync(stalePartial, PNG.subarray(0, 10));
    fs.writeFileSync(freshPartial, PNG.subarray(0, 10));
    fs.utimesSync(stalePartial, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));
    // And an upload still being received when the process died, on either backend (DATA_DIR/uploads).
    const spool = path.join(config().dataDir, "uploads");
    fs.mkdirSync(spool, { recursive: true });
    const staleUpload = path.join(spool, "00112233445566778899aabbccddeeff.upload");
    const freshUpload = path.join(spool, "ffeeddccbbaa99887766554433221100.upload");
    fs.writeFileSync(staleUpload, PNG.subarray(0, 10));
    fs.writeFileSync(freshUpload, PNG.subarray(0, 10));
    fs.utimesSync(staleUpload, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));

    const swept = await sweepOrphanFiles();
    expect(swept.orphans).toEqual([orphan]);
    expect(await keys()).toEqual(expect.arrayContaining([referenced, freshOrphan]));
    expect(await keys()).not.toContain(orphan);
    if (backend.name === "local") {
      expect(swept.partials).toEqual([
        `uploads/${path.basename(staleUpload)}`,
        path.relative(path.join(config().dataDir, "files"), stalePartial),
      ]);
      expect(fs.existsSync(stalePartial)).toBe(false);
    } else {
      expect(swept.partials).toContain(`uploads/${path.basename(staleUpload)}`);
    }
    expect(fs.existsSync(staleUpload)).toBe(false);
    expect(fs.existsSync(freshPartial)).toBe(true);
    expect(fs.existsSync(freshUpload)).toBe(true);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(spool, { recursive: true, force: true });
  });
});
