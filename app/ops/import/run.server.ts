import path from "node:path";
import { audit } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";
import { holdingDatabase } from "~/platform/db/holds.server";
import { logger } from "~/platform/logger.server";
import { removeFile } from "~/platform/storage/storage.server";
import { importApplications } from "./applications.server";
import { importCharacters } from "./characters.server";
import type { ImportContext } from "./context.server";
import { readCsv, type CsvTable } from "./csv.server";
import { importEvents } from "./events.server";
import { exportRoot } from "./export-files.server";
import { EXPORT_FILES, ImportError, type ExportTable } from "./format.server";
import { importMembers } from "./members.server";
import { importOldSiteEvents } from "./old-site-events.server";
import { emptyReport, formatReport, reportChanged, type ImportReport } from "./report.server";
import { importResearch } from "./research-files.server";
import { importAttendance, importLetters, importMerchantOrders, importPels } from "./submissions.server";

/** Reads every file of the export: a missing file, a link, a wrong header or malformed CSV refuses the whole export. */
function readExport(root: string): Record<ExportTable, CsvTable> {
  return Object.fromEntries(Object.entries(EXPORT_FILES).map(([table, spec]) => [table, readCsv(root, spec)])) as Record<ExportTable, CsvTable>;
}

/** Every table of the export, owners before their rows, in the run's transaction; a run that changed anything is audited. */
async function importTables(ctx: ImportContext, files: Record<ExportTable, CsvTable>): Promise<void> {
  await importMembers(ctx, files.auth_users, files.profiles);
  await importEvents(ctx, files.events);
  await importApplications(ctx, files.applications);
  await importCharacters(ctx, files.characters);
  await importOldSiteEvents(ctx, files.characters);
  await importPels(ctx, files.pels);
  await importMerchantOrders(ctx, files.merchant_orders);
  await importAttendance(ctx, files.event_attendance);
  await importResearch(ctx, files.research);
  await importLetters(ctx, files.letters);
  const { report } = ctx;
  if (!reportChanged(report)) return;
  const tables = Object.values(report.tables);
  await audit(ctx.tx, {
    actorId: null,
    action: "import.run",
    details: {
      operator: "npm run import",
      imported: tables.reduce((sum, c) => sum + c.imported, 0),
      updated: tables.reduce((sum, c) => sum + c.updated, 0),
      skipped: report.skipped.length,
      oldSiteEventCounts: report.oldSiteEvents.taken,
    },
  });
}

/**
 * Imports the old site's export in `dir` in one transaction: every row, or (on any failure)
 * nothing, and the files this run copied into storage are removed again. Rows the site
 * holds already are left as they are unless the export's are newer, so a second run
 * changes nothing. Returns what became of each row.
 */
export async function importExport(dir: string): Promise<ImportReport> {
  const folder = path.resolve(dir);
  const root = exportRoot(folder);
  const files = readExport(root);
  const db = await database();
  const report = emptyReport(folder);
  const writtenFiles: string[] = [];
  try {
    await holdingDatabase("an import", () => db.transaction((tx) => importTables({ tx, dir: root, report, writtenFiles }, files)));
  } catch (error) {
    for (const key of writtenFiles) await removeFile(key).catch((cleanup: unknown) => logger.error({ err: cleanup, key }, "removing an imported file after a failed import failed"));
    throw error;
  }
  return report;
}

/** What the command prints and its exit code, in its own process or relayed from the running server's. */
export type ImportOutcome = { code: number; out: string[]; err: string[] };

/** The import as an operator's command: the report, or why nothing was imported. */
export async function runImportCommand(dir: string): Promise<ImportOutcome> {
  try {
    const report = await importExport(dir);
    return { code: 0, out: [formatReport(report)], err: [] };
  } catch (error) {
    if (error instanceof ImportError) return { code: 1, out: [], err: [error.message] };
    logger.error({ err: error }, "import failed");
    return { code: 1, out: [], err: [`Nothing was imported: ${error instanceof Error ? error.message : String(error)}`] };
  }
}
