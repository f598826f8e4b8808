import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { StorageConfig } from "../config.server";
import { exactly, StorageError, type StorageBackend, type StoredFile } from "./backend";

type S3Settings = Extract<StorageConfig, { kind: "s3" }>;

/** Marks an upload still being written; never a valid key, so listings of files skip it. */
const PARTIAL = ".partial-";

type SdkError = { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };

const NETWORK_ERRORS = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "TimeoutError",
]);

/**
 * The AWS SDK, loaded when S3 storage is first used: it is about 20 MB of code that a site
 * keeping its files in DATA_DIR (the default) never needs in memory.
 */
const loadSdk = () => import("@aws-sdk/client-s3");
let sdkLoading: ReturnType<typeof loadSdk> | undefined;
const sdk = () => (sdkLoading ??= loadSdk());

async function clientFor(settings: S3Settings, extra: Partial<S3ClientConfig> = {}): Promise<S3Client> {
  const { S3Client } = await sdk();
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: several S3-compatible services (and s3rver)
    // refuse the newer default of a streamed body with a trailing checksum.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    ...extra,
  });
}

function isMissing(error: unknown): boolean {
  const e = error as SdkError;
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
}

/** Says which setting to fix, from what the service (or the network) answered. */
export function explainS3Failure(error: unknown, settings: S3Settings): string {
  const e = error as SdkError;
  const where = settings.endpoint ?? `AWS S3 (${settings.region})`;
  const status = e.$metadata?.httpStatusCode;
  const code = e.code ?? e.name ?? "";
  const lead = "Cannot use the S3 storage for uploaded files:";
  if (
    NETWORK_ERRORS.has(code) ||
    (status === undefined && /connect|socket|timed? ?out|getaddrinfo/i.test(e.message ?? ""))
  ) {
    return `${lead} S3_ENDPOINT: cannot reach ${where} (${code || e.message}).`;
  }
  if (e.name === "CredentialsProviderError") {
    return `${lead} S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: none are set and this machine has no credentials of its own.`;
  }
  if (status === 404 || e.name === "NotFound" || e.name === "NoSuchBucket") {
    return `${lead} S3_BUCKET: there is no bucket "${settings.bucket}" at ${where}.`;
  }
  if (status === 401 || status === 403) {
    return `${lead} S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: ${where} refused them for the bucket "${settings.bucket}" (HTTP ${status}).`;
  }
  if (status === 301 || status === 400) {
    return `${lead} S3_REGION or S3_ENDPOINT: ${where} answered HTTP ${status} for the bucket "${settings.bucket}" in region ${settings.region}.`;
  }
  return `${lead} S3_ENDPOINT: ${where} answered ${status ? `HTTP ${status}` : code || "an error"} for the bucket "${settings.bucket}".`;
}

/** Files in one bucket of an S3-compatible service, under an optional key prefix. */
export function s3Backend(settings: S3Settings, isKey: (key: string) => boolean): StorageBackend {
  let made: Promise<S3Client> | undefined;
  /** The SDK and this bucket's client, made on first use. */
  const ready = async () => ({ s3: await sdk(), client: await (made ??= clientFor(settings)) });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => settings.prefix + key;

  return {
    kind: "s3",
    async put(key, body, size, contentType) {
      const { s3, client } = await ready();
      // Written under a temporary name and copied into place once complete, as the local
      // backend renames: S3 itself keeps nothing from a failed PUT, but some compatible
      // services keep what arrived, even after a delete sent when the upload failed.
      const partial = `${objectKey(key)}${PARTIAL}${randomUUID()}`;
      const source = Readable.from(exactly(body, size));
      // The HTTP client does not stop when its body fails: cut the request, or it waits forever.
      const cut = new AbortController();
      let failure: unknown;
      source.once("error", (error) => {
        failure = error;
        cut.abort(error);
      });
      try {
        await client.send(
          new s3.PutObjectCommand({
            Bucket,
            Key: partial,
            Body: source,
            ContentLength: size,
            ContentType: contentType,
          }),
          {
            abortSignal: cut.signal,
          },
        );
      } catch (error) {
        body.destroy();
        // Whatever a service kept is removed now or, if it lands later, by the sweep of stale partials.
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: partial })).catch(() => {});
        throw failure ?? error;
      }
      try {
        await client.send(
          new s3.CopyObjectCommand({ Bucket, Key: objectKey(key), CopySource: encodeURI(`${Bucket}/${partial}`) }),
        );
      } finally {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: partial })).catch(() => {});
      }
    },
    async open(key) {
      const { s3, client } = await ready();
      try {
        const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!(answer.Body instanceof Readable)) throw new Error("the S3 client gave no stream");
        return { size: answer.ContentLength ?? 0, stream: answer.Body };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const { s3, client } = await ready();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(): AsyncGenerator<StoredFile> {
      const { s3, client } = await ready();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new s3.ListObjectsV2Command({ Bucket, Prefix: settings.prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(settings.prefix.length);
          if (!key || !isKey(key)) continue;
          yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async removeStalePartials(before) {
      const { s3, client } = await ready();
      const removed: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new s3.ListObjectsV2Command({ Bucket, Prefix: settings.prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key?.includes(PARTIAL) || (object.LastModified ?? new Date(0)) >= before) continue;
          await client.send(new s3.DeleteObjectCommand({ Bucket, Key: object.Key }));
          removed.push(object.Key.slice(settings.prefix.length));
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return removed;
    },
    async check() {
      // Once, without retries: a wrong setting should stop the start at once, not after back-off.
      let probe: S3Client | undefined;
      try {
        const { HeadBucketCommand } = await sdk();
        probe = await clientFor(settings, { maxAttempts: 1 });
        await probe.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new StorageError(explainS3Failure(error, settings));
      } finally {
        probe?.destroy();
      }
    },
  };
}
