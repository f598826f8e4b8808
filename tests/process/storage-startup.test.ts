import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort } from "../helpers/ports";
import { run } from "../helpers/processes";
import { S3_TEST_CREDENTIALS, startS3Server } from "../helpers/s3";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

describe("starting with S3 storage that cannot be used", () => {
  let dataDir: string;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    // Migrated already: the starts that fail stop before opening it, the one that works skips initdb.
    dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-storage-start-")));
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>) {
    const server = run(process.execPath, ["server.mjs"], {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      NODE_ENV: "production",
      ...s3.env,
      ...env,
    });
    // A start that does not stop by itself is a failure; never leave it holding DATA_DIR.
    const stray = setTimeout(() => server.child.kill("SIGKILL"), 30_000);
    const { code } = await server.exited;
    clearTimeout(stray);
    return { code, output: server.output() };
  }

  it.each([
    [
      "an unreachable endpoint",
      async () => ({ S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }),
      /S3_ENDPOINT: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    ],
    [
      "a missing bucket",
      async () => ({ S3_BUCKET: "no-such-bucket" }),
      /S3_BUCKET: there is no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+/,
    ],
    // s3rver checks the key id but not version 4 signatures, so the wrong key is the id.
    [
      "wrong credentials",
      async () => ({ S3_ACCESS_KEY_ID: "NOT-A-KEY", S3_SECRET_ACCESS_KEY: "not-the-secret" }),
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: http:\/\/127\.0\.0\.1:\d+ refused them/,
    ],
    [
      "STORAGE=s3 without a bucket",
      async () => ({ S3_BUCKET: "" }),
      /Invalid configuration:\n\s+- S3_BUCKET: is needed when STORAGE=s3/,
    ],
  ])(
    "stops with %s, naming the setting, without a stack trace",
    async (_case, env, message) => {
      const { code, output } = await start(await env());
      expect(code).toBe(1);
      expect(output).toMatch(message);
      expect(output).not.toMatch(/^\s+at /m);
      // Stopped before opening the database: no lock is left behind.
      expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(false);
    },
    60_000,
  );

  it("starts when the bucket answers, and sweeps what an interrupted upload left there", async () => {
    // A file stored two hours ago whose row was never written (the process died in between).
    const orphan = `research/${randomUUID()}/${"ab".repeat(16)}.png`;
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3_TEST_CREDENTIALS,
    });
    await client.send(new PutObjectCommand({ Bucket: "hopewell-test", Key: orphan, Body: "not really a png" }));
    const past = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(s3.objectPath("hopewell-test", orphan), past, past);

    const port = await freePort();
    const server = run(process.execPath, ["server.mjs"], {
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: "production",
      ...s3.env,
    });
    await server.waitFor(/running at http:\/\/localhost:\d+/, 60_000);
    expect(server.output()).toMatch(/"storage":"s3".*"msg":"file storage ready"/);
    await server.waitFor(
      /"orphans":\["research\/[^"]+"\].*"msg":"removed 0 unfinished and 1 unreferenced upload files"/,
    );
    expect(fs.existsSync(s3.objectPath("hopewell-test", orphan))).toBe(false);
    client.destroy();
    server.child.kill("SIGTERM");
    expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
  }, 90_000);
});
