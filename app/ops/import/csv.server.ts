import { CsvError, parse } from "csv-parse/sync";
import { describeProblem, ExportFileRefused, readExportFile } from "./export-files.server";
import { ImportError, type ExportFile } from "./format.server";

/** One data row: its line in the file (where the row starts) and its cells by column, an empty cell as null. */
export type CsvRow = { line: number; cells: Record<string, string | null> };

export type CsvTable = { file: string; rows: CsvRow[] };

type Parsed = { record: string[]; info: { lines: number }; raw: string };

/** Where a record starts: the parser counts the line it ends on, and a quoted cell may span lines. */
function startLine({ info, raw }: Parsed): number {
  const newlines = raw.replace(/\r?\n$/, "").split("\n").length - 1;
  return info.lines - newlines;
}

/** The header's problems, or null: every required column, no unknown one, none twice. */
function headerProblem(header: string[], spec: ExportFile): string | null {
  const seen = new Set<string>();
  for (const column of header) {
    if (seen.has(column)) return `the column "${column}" appears twice`;
    seen.add(column);
  }
  const missing = spec.required.filter((column) => !seen.has(column));
  const known = new Set([...spec.required, ...spec.optional]);
  const unknown = header.filter((column) => !known.has(column));
  const problems = [
    missing.length > 0 ? `missing ${missing.map((c) => `"${c}"`).join(", ")}` : "",
    unknown.length > 0 ? `unknown ${unknown.map((c) => `"${c}"`).join(", ")}` : "",
  ].filter(Boolean);
  return problems.length > 0
    ? `the header row is wrong: ${problems.join("; ")} (expected ${spec.required.join(", ")})`
    : null;
}

/** What is wrong with the CSV, in words an operator can act on, and where. */
function malformed(file: string, error: CsvError, lastLine: number, headerCells: number | undefined): string {
  const line = (error as CsvError & { lines?: number }).lines ?? lastLine + 1;
  const cells = (error as CsvError & { record?: unknown[] }).record?.length;
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return `${file} line ${lastLine + 1}: malformed CSV (a quoted cell opened after line ${lastLine} is never closed).`;
    case "INVALID_OPENING_QUOTE":
      return `${file} line ${line}: malformed CSV (a quote inside an unquoted cell: quote the whole cell and double the quotes in it).`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `${file} line ${line}: malformed CSV (text after a closing quote).`;
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return `${file} line ${line}: malformed CSV (the row has ${cells ?? "a different number of"} cells where the header has ${headerCells ?? "another number"}).`;
    default:
      return `${file} line ${line}: malformed CSV (${error.message}).`;
  }
}

/**
 * Reads one of the export's CSV files (RFC 4180: quoted cells may hold commas, quotes and
 * line breaks). A missing file, a wrong header or malformed CSV is an ImportError naming
 * the file and the line.
 */
export function readCsv(dir: string, spec: ExportFile): CsvTable {
  const file = spec.file;
  let text: string;
  try {
    text = readExportFile(dir, [file]);
  } catch (error) {
    if (error instanceof ExportFileRefused) {
      if (error.problem === "missing") throw new ImportError(`${file}: the file is missing from ${dir}.`);
      throw new ImportError(`${file}: ${describeProblem(error.problem)}. Nothing was imported.`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportError(`${file}: cannot be read (${code ?? (error as Error).message}).`);
  }
  let parsed: Parsed[];
  // Where the last complete row ended, and how many cells the header has: for the messages.
  let lastLine = 0;
  let headerCells: number | undefined;
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lastLine = context.lines;
        // With `info` and `raw`, the parser hands over the wrapped record (its types say otherwise).
        headerCells ??= (Array.isArray(record) ? record : (record as unknown as Parsed).record).length;
        return record;
      },
    }) as unknown as Parsed[];
  } catch (error) {
    if (error instanceof CsvError) throw new ImportError(malformed(file, error, lastLine, headerCells));
    throw error;
  }
  const [head, ...records] = parsed;
  if (!head) throw new ImportError(`${file} line 1: the file is empty; it needs at least its header row.`);
  const header = head.record.map((column) => column.trim());
  const problem = headerProblem(header, spec);
  if (problem) throw new ImportError(`${file} line ${startLine(head)}: ${problem}.`);
  const rows = records.map((entry) => {
    const cells: Record<string, string | null> = {};
    header.forEach((column, i) => {
      const value = entry.record[i] ?? "";
      cells[column] = value === "" ? null : value;
    });
    return { line: startLine(entry), cells };
  });
  return { file, rows };
}
