// Backup archives are signed so that a changed one is refused (decision 0035). The key is a file
// in DATA_DIR, never in an archive: whoever can change an archive cannot sign it again.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BackupError } from "./format.server";

/** The key's file in DATA_DIR, readable by its owner only. */
export const BACKUP_KEY_FILE = "backup.key";
/** The signature's file in the archive, beside the manifest it signs. */
export const SIGNATURE_FILE = "manifest.sig";

const ALGORITHM = "HMAC-SHA256";
const KEY_TEXT = /^[0-9a-f]{64}$/;

export type BackupKey = { secret: Buffer; id: string; file: string };
type Signature = { algorithm: typeof ALGORITHM; keyId: string; signature: string };

export function backupKeyPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), BACKUP_KEY_FILE);
}

/** A short name of the key that says which key signed an archive without giving the key away. */
function keyIdOf(secret: Buffer): string {
  return crypto.createHash("sha256").update("hopewell backup key id\0").update(secret).digest("hex").slice(0, 16);
}

/** The key in `dataDir`, or undefined when there is none; a file that is not a key is named. */
export function readBackupKey(dataDir: string): BackupKey | undefined {
  const file = backupKeyPath(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new BackupError(`Could not read the backup key ${file}: ${(error as Error).message}.`);
  }
  if (!KEY_TEXT.test(text))
    throw new BackupError(
      `${file} is not a backup key (64 hexadecimal characters). Put back the key the site made, or remove the file to make a new one.`,
    );
  const secret = Buffer.from(text, "hex");
  return { secret, id: keyIdOf(secret), file };
}

/**
 * The key in `dataDir`, made now when there is none (the site's first start, or the first backup).
 * Created exclusively, so two processes starting at once end up with the same key.
 */
export function ensureBackupKey(dataDir: string): { key: BackupKey; made: boolean } {
  const existing = readBackupKey(dataDir);
  if (existing) return { key: existing, made: false };
  fs.mkdirSync(path.resolve(dataDir), { recursive: true });
  try {
    fs.writeFileSync(backupKeyPath(dataDir), `${crypto.randomBytes(32).toString("hex")}\n`, {
      flag: "wx",
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process made it a moment ago; its key is the one.
    return { key: readBackupKey(dataDir)!, made: false };
  }
  return { key: readBackupKey(dataDir)!, made: true };
}

function hmac(secret: Buffer, manifestBytes: Buffer): string {
  return crypto.createHmac("sha256", secret).update(manifestBytes).digest("hex");
}

/** The signature file's text for the manifest's exact bytes (which name every part's sha256). */
export function signManifest(key: BackupKey, manifestBytes: Buffer): string {
  const signature: Signature = { algorithm: ALGORITHM, keyId: key.id, signature: hmac(key.secret, manifestBytes) };
  return `${JSON.stringify(signature, null, 2)}\n`;
}

/**
 * Why an archive's signature does not hold, or undefined when it does. `altered`: the archive was
 * changed after this site signed it (its signature does not match under this site's own key, or
 * is not one this site writes), which no operator's trust can make good; the other reasons (no
 * signature, another key, no key here) leave the operator to judge where the archive has been.
 * `dataDir` is where this site's key is.
 */
export function signatureProblem(
  manifestBytes: Buffer,
  signatureText: string | undefined,
  dataDir: string,
): { reason: string; altered: boolean } | undefined {
  const unverifiable = (reason: string) => ({ reason, altered: false });
  const altered = (reason: string) => ({ reason: `${reason}: it was altered after it was made`, altered: true });
  if (signatureText === undefined)
    return unverifiable(
      "it carries no signature (it was made before backups were signed, or its signature was removed)",
    );
  let signature: Partial<Signature>;
  try {
    signature = JSON.parse(signatureText) as Partial<Signature>;
  } catch {
    return altered(`its ${SIGNATURE_FILE} cannot be read`);
  }
  if (
    signature?.algorithm !== ALGORITHM ||
    typeof signature.keyId !== "string" ||
    typeof signature.signature !== "string"
  )
    return altered(`its ${SIGNATURE_FILE} is not a signature this site makes`);
  const key = readBackupKey(dataDir);
  if (!key)
    return unverifiable(
      `there is no backup key at ${backupKeyPath(dataDir)} to check its signature with (copy there the backup.key of the site that made it)`,
    );
  if (signature.keyId !== key.id)
    return unverifiable(
      `it was signed with another key (${signature.keyId}) than this site's ${key.file} (${key.id}): copy there the backup.key of the site that made it`,
    );
  const expected = Buffer.from(hmac(key.secret, manifestBytes), "hex");
  const given = Buffer.from(signature.signature, "hex");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return altered("its signature does not match its contents under this site's key");
  return undefined;
}

/**
 * At the server's start: the key is made on the first one, and said so, for the operator to keep a
 * copy (operators.md, "Backups"). A key file that cannot be read is logged and the site serves on;
 * its backups fail, naming it, until it is put right.
 */
export function prepareBackupKey(
  dataDir: string,
  log: { info: (fields: object, message: string) => void; error: (fields: object, message: string) => void },
): void {
  try {
    const { key, made } = ensureBackupKey(dataDir);
    if (made)
      log.info(
        { file: key.file, keyId: key.id },
        "made the key that signs backups: keep a copy apart from the backups",
      );
  } catch (error) {
    log.error({ reason: (error as Error).message }, "the key that signs backups is unusable");
  }
}
