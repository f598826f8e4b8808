import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// s3rver ships no types; the few options used here are described below.
// @ts-expect-error -- untyped CommonJS package
import S3rver from "s3rver";

/** s3rver's one built-in account: any other key is refused as a real service would. */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

type S3rverInstance = { run: () => Promise<{ port: number }>; close: () => Promise<void> };

/**
 * A local S3-compatible server in a temporary folder, on a free port, with `buckets` made.
 * `env` holds the site's settings that point at it.
 */
export async function startS3Server(buckets: string[] = ["hopewell-test"]) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  }) as S3rverInstance;
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: buckets[0]!,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    /** Where s3rver keeps an object's bytes (its modification time is the object's). */
    objectPath: (bucket: string, key: string) => path.join(directory, bucket, `${key}._S3rver_object`),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
