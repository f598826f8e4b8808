import { inArray } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Transaction } from "~/platform/db/client.server";
import { letOtherWorkIn } from "~/platform/db/holds.server";
import { withoutParameters } from "~/platform/log-errors.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { ImportError } from "./format.server";
import type { ImportReport, ReportTable } from "./report.server";
import { Skip } from "./values.server";

/** What every step of one run shares: its transaction, the export's folder, the report, the files written so far. */
export type ImportContext = {
  tx: Transaction;
  /** The export folder, links in its own path resolved: files are read only from inside it (export-files.server.ts). */
  dir: string;
  report: ImportReport;
  /** Storage keys this run wrote: removed again if the run fails, so nothing is left half-imported. */
  writtenFiles: string[];
  /** A check (import --check): files are judged and counted, never written to storage. */
  check?: boolean;
};

/**
 * Why the database refused a statement, without the statement's values (they are members'
 * data): the driver's own message, under the query builder's "Failed query: ... params: ...".
 */
export function databaseReason(error: unknown): string {
  let innermost = error;
  for (let depth = 0; depth < 5 && innermost instanceof Error && innermost.cause instanceof Error; depth++)
    innermost = innermost.cause;
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return withoutParameters(message).replace(/\nparams: \[not logged\]$/, "");
}

/** What became of one row. */
export type Outcome = "imported" | "updated" | "unchanged" | "kept";

export function skipRow(ctx: ImportContext, table: ReportTable, file: string, line: number, skip: Skip): void {
  ctx.report.tables[table].skipped++;
  ctx.report.skipped.push({ table, file, line, reason: skip.reason, message: skip.message });
}

export function flagRow(
  ctx: ImportContext,
  table: ReportTable,
  file: string,
  line: number,
  reason: string,
  message: string,
): void {
  ctx.report.flagged.push({ table, file, line, reason, message });
}

export function count(ctx: ImportContext, table: ReportTable, outcome: Outcome): void {
  ctx.report.tables[table][outcome]++;
}

/**
 * Imports each row of `csv` with `each`, counting what became of it. A Skip leaves the row
 * out with its reason; any other failure (the database refusing a row) stops the run,
 * naming the file and line, and the transaction takes back everything.
 */
export async function eachRow(
  ctx: ImportContext,
  table: ReportTable,
  csv: CsvTable,
  each: (row: CsvRow) => Promise<Outcome>,
): Promise<void> {
  for (const row of csv.rows) {
    await letOtherWorkIn();
    let outcome: Outcome;
    try {
      outcome = await each(row);
    } catch (error) {
      if (error instanceof Skip) {
        skipRow(ctx, table, csv.file, row.line, error);
        continue;
      }
      if (error instanceof ImportError) throw error;
      throw new ImportError(
        `${csv.file} line ${row.line}: the database refused the row (${databaseReason(error)}). Nothing was imported.`,
        { cause: error },
      );
    }
    count(ctx, table, outcome);
  }
}

/**
 * The rule for a row the site may already hold: write it when it is new, replace it when
 * the export's version is newer, and otherwise leave the site's (the same, or changed here since).
 */
export async function saveVersioned(
  existing: { stamp: Date } | undefined,
  stamp: Date,
  write: { insert: () => Promise<unknown>; update: () => Promise<unknown> },
): Promise<Outcome> {
  if (!existing) {
    await write.insert();
    return "imported";
  }
  const site = existing.stamp.getTime();
  if (stamp.getTime() > site) {
    await write.update();
    return "updated";
  }
  return stamp.getTime() === site ? "unchanged" : "kept";
}

/** Which of `ids` are already rows of the table `idColumn` belongs to (imported now or before). */
export async function existingIds(ctx: ImportContext, idColumn: PgColumn, ids: string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  const found = new Set<string>();
  // A thousand at a time: one parameter an id, and the database's limit on parameters is far off.
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await ctx.tx
      .select({ id: idColumn })
      .from(idColumn.table)
      .where(inArray(idColumn, unique.slice(i, i + 1000)));
    for (const row of rows) found.add(row.id as string);
  }
  return found;
}
