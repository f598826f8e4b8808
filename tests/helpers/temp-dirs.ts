import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** Makes temporary folders for one test file (`hopewell-<label>-…`), all removed after the file. */
export function withTempDirs(): (label: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  return (label) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-${label}-`));
    made.push(dir);
    return dir;
  };
}
