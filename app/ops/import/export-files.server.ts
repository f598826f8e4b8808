import fs from "node:fs";
import path from "node:path";
import { ImportError } from "./format.server";

/**
 * Opening the export's own files, and nothing else. The import runs as the site's user, who can
 * read every member's stored files, the database and the secrets beside them, while the export
 * may come from anywhere: a symbolic link in it (`storage/research/<id>/paper.pdf` pointing at
 * another member's stored file) would have the import copy what it points at into the
 * importer's research. So no file is read through a link, and nothing outside the export folder
 * is read at all. Hard links are read like any file: making one needs access to the file
 * already, so it reveals nothing its maker could not read.
 */

/** Why a file of the export was not read. */
export type ExportFileProblem = "missing" | "link" | "outside" | "not a file";

export class ExportFileRefused extends Error {
  constructor(
    readonly problem: ExportFileProblem,
    readonly relative: string,
  ) {
    super(`${relative}: ${describeProblem(problem)}`);
    this.name = "ExportFileRefused";
  }
}

export function describeProblem(problem: ExportFileProblem): string {
  switch (problem) {
    case "missing":
      return "missing from the export";
    case "link":
      return "a symbolic link (the export's files must be files, not links)";
    case "outside":
      return "a symbolic link to a file outside the export folder";
    case "not a file":
      return "not a file";
  }
}

/** The export folder as the system knows it (links in its own path resolved), so every file can be compared with it. */
export function exportRoot(dir: string): string {
  const given = path.resolve(dir);
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch {
    real = given;
  }
  if (!fs.statSync(real, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ImportError(`${given} is not a folder: give the folder holding auth_users.csv and the other files.`);
  }
  return real;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

// Where the platform has it, opening refuses a link put in the file's place after the check.
const NO_FOLLOW = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * The path of `parts` under `root`, checked: it exists, no part of it is a symbolic link, and it
 * is inside the export. `parts` are single names (the callers refuse "..", "/" and the like).
 */
function checkedPath(root: string, parts: readonly string[]): string {
  const relative = parts.join("/");
  const full = path.join(root, ...parts);
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new ExportFileRefused("missing", relative);
    throw error;
  }
  // The root is resolved already, so any difference is a link on the way.
  if (real !== full) throw new ExportFileRefused(isInside(root, real) ? "link" : "outside", relative);
  return full;
}

function refusedOpen(error: unknown, relative: string): never {
  // O_NOFOLLOW's answer when the name became a link after the check.
  if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new ExportFileRefused("link", relative);
  throw error;
}

/** Reads a whole file of the export (a CSV), refusing links and anything outside it. */
export function readExportFile(root: string, parts: readonly string[]): string {
  const relative = parts.join("/");
  const full = checkedPath(root, parts);
  let fd: number;
  try {
    fd = fs.openSync(full, NO_FOLLOW);
  } catch (error) {
    refusedOpen(error, relative);
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new ExportFileRefused("not a file", relative);
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens a file of the export for reading (a research file), refusing links and anything outside it. The caller closes it. */
export async function openExportFile(
  root: string,
  parts: readonly string[],
): Promise<{ handle: fs.promises.FileHandle; size: number }> {
  const relative = parts.join("/");
  const full = checkedPath(root, parts);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(full, NO_FOLLOW);
  } catch (error) {
    refusedOpen(error, relative);
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new ExportFileRefused("not a file", relative);
  }
  return { handle, size: stat.size };
}
