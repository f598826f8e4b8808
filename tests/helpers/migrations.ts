import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect } from "vitest";

/**
 * For tests of a migration on data written before it: folders of the test's own, removed when the
 * file is done, and a copy of the migrations that stops before one, to make a database of an
 * earlier version of the site.
 */
export function migrationFolders() {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });
  function tempDir(label: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-${label}-`));
    temps.push(dir);
    return dir;
  }
  /** A copy of the migrations that stops before the one whose tag starts with `tag`. */
  function migrationsBefore(tag: string): string {
    const dir = tempDir("migrations-before");
    fs.cpSync("drizzle", dir, { recursive: true });
    const journalFile = path.join(dir, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((entry) => entry.tag.startsWith(tag));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    return dir;
  }
  return { tempDir, migrationsBefore };
}
