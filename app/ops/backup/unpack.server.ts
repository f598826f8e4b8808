// Opening a backup archive for a restore: unpacking it, checking every part against its manifest,
// and refusing a schema this version of the site does not know.
import fs from "node:fs";
import path from "node:path";
import { BackupError, FORMAT, migrationJournal, sha256File, type Manifest } from "./format.server";
import { SIGNATURE_FILE, signatureProblem } from "./signature.server";

/** A table's name as the backup writes it: schema.table, in the plain letters PostgreSQL needs no quotes for. */
const TABLE_NAME = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** Whether what the archive calls its manifest has the shape this code reads, every part described. */
function isManifest(value: unknown): value is Manifest {
  const manifest = value as Partial<Manifest> | null;
  if (manifest === null || typeof manifest !== "object" || manifest.format !== FORMAT) return false;
  if (
    typeof manifest.schemaVersion !== "string" ||
    typeof manifest.schemaVersionAt !== "number" ||
    !Array.isArray(manifest.tables) ||
    !Array.isArray(manifest.files)
  )
    return false;
  const names = new Set<string>();
  for (const table of manifest.tables as unknown[]) {
    const { name, file, rows, sha256 } = (table ?? {}) as Partial<Manifest["tables"][number]>;
    if (typeof name !== "string" || !TABLE_NAME.test(name) || names.has(name)) return false;
    if (
      typeof file !== "string" ||
      !Number.isSafeInteger(rows) ||
      rows! < 0 ||
      typeof sha256 !== "string" ||
      !SHA256.test(sha256)
    )
      return false;
    names.add(name);
  }
  return (manifest.files as unknown[]).every((stored) => {
    const { key, sha256 } = (stored ?? {}) as Partial<Manifest["files"][number]>;
    return typeof key === "string" && typeof sha256 === "string" && SHA256.test(sha256);
  });
}

/** Where this site's backup key is, and whether to go on when the archive's signature does not hold. */
export type SignatureCheck = { dataDir: string; trustUnsigned?: boolean };

/**
 * Unpacks the archive and checks its signature and every part against the manifest before
 * anything is touched. With `trustUnsigned`, a signature that could not be checked (none, another
 * key's, no key here) is not a refusal: `unchecked` says why. An archive altered after this site
 * signed it is refused all the same: the flag is for archives the operator kept, not changed ones.
 */
export async function unpack(
  file: string,
  into: string,
  check: SignatureCheck,
): Promise<{ manifest: Manifest; unchecked?: string }> {
  if (!fs.existsSync(file)) throw new BackupError(`No backup file at ${file}.`);
  const damaged = (detail: string) =>
    new BackupError(`${file} is not a usable backup: ${detail}. Nothing was restored.`);
  try {
    const tar = await import("tar");
    await tar.x({ file, cwd: into, strict: true });
  } catch (error) {
    throw damaged(`the archive is truncated or corrupted (${(error as Error).message})`);
  }
  let manifest: Manifest;
  let manifestBytes: Buffer;
  try {
    manifestBytes = await fs.promises.readFile(path.join(into, "manifest.json"));
    manifest = JSON.parse(manifestBytes.toString("utf8")) as Manifest;
  } catch {
    throw damaged("it has no readable manifest.json");
  }
  if (!isManifest(manifest)) throw damaged("its manifest is not a Hopewell backup manifest");
  const signature = await fs.promises.readFile(path.join(into, SIGNATURE_FILE), "utf8").catch(() => undefined);
  const problem = signatureProblem(manifestBytes, signature, check.dataDir);
  if (problem?.altered)
    throw new BackupError(
      `${file} cannot be trusted: ${problem.reason}, and must not be restored. Nothing was restored.`,
    );
  if (problem && !check.trustUnsigned) {
    throw new BackupError(
      `${file} cannot be trusted: ${problem.reason}. Nothing was restored. If you made it yourself and kept it where no one else could change it (an archive from before backups were signed), add --trust-unsigned.`,
    );
  }
  const parts = [
    ...manifest.tables.map((table) => ({ file: table.file, sha256: table.sha256 })),
    ...manifest.files.map((stored) => {
      if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\.[a-z0-9]+$/.test(stored.key))
        throw damaged(`it names a file with a bad key (${stored.key})`);
      return { file: `files/${stored.key}`, sha256: stored.sha256 };
    }),
  ];
  for (const part of parts) {
    const full = path.join(into, part.file);
    if (!full.startsWith(into + path.sep) || !fs.existsSync(full)) throw damaged(`${part.file} is missing`);
    if ((await sha256File(full)) !== part.sha256) throw damaged(`${part.file} does not match its checksum`);
  }
  return { manifest, unchecked: problem?.reason };
}

/** Refuses an archive whose schema this code does not know (a newer site's, usually). */
export function checkSchemaVersion(manifest: Manifest, migrationsDir: string): void {
  const journal = migrationJournal(migrationsDir);
  if (journal.some((entry) => entry.tag === manifest.schemaVersion && entry.when === manifest.schemaVersionAt)) return;
  const latest = journal.at(-1);
  if (!latest || manifest.schemaVersionAt > latest.when) {
    throw new BackupError(
      `This backup is from a newer version of the site (schema ${manifest.schemaVersion}; this code knows up to ${latest?.tag ?? "none"}). Update the site, then restore.`,
    );
  }
  throw new BackupError(
    `This backup's schema version ${manifest.schemaVersion} is unknown to this version of the site.`,
  );
}
