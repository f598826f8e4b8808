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

/**
 * Reads every file of the export: a missing file, a link, a wrong header or malformed CSV refuses
 * the whole export. Every file is read before refusing, so one run names all of their problems
 * (one run per file took a club seven runs).
 */
function readExport(root: string): Record<ExportTable, CsvTable> {
  const tables: Partial<Record<ExportTable, CsvTable>> = {};
  const problems: ImportError[] = [];
  for (const [table, spec] of Object.entries(EXPORT_FILES) as [ExportTable, (typeof EXPORT_FILES)[ExportTable]][]) {
    try {
      tables[table] = readCsv(root, spec);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) {
    const lines = problems.map((problem) => `  ${problem.message.replace(/ Nothing was imported\.$/, "")}`);
    throw new ImportError(
      [`${problems.length} files of the export have problems; nothing was imported:`, ...lines].join("\n"),
    );
  }
  return tables as Record<ExportTable, CsvTable>;
}

/** Ends a check's transaction without committing it: a check writes nothing. */
class CheckOnly extends Error {}

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
export async function importExport(dir: string, options: { check?: boolean } = {}): Promise<ImportReport> {
  const folder = path.resolve(dir);
  const root = exportRoot(folder);
  const files = readExport(root);
  const db = await database();
  const report = emptyReport(folder);
  const writtenFiles: string[] = [];
  try {
    await holdingDatabase(options.check ? "an import check" : "an import", () =>
      db.transaction(async (tx) => {
        await importTables({ tx, dir: root, report, writtenFiles, check: options.check }, files);
        // A check runs the whole import, so its report is the real one's, and then takes it all back.
        if (options.check) throw new CheckOnly();
      }),
    );
  } catch (error) {
    for (const key of writtenFiles)
      await removeFile(key).catch((cleanup: unknown) =>
        logger.error({ err: cleanup, key }, "removing an imported file after a failed import failed"),
      );
    if (!(error instanceof CheckOnly)) throw error;
  }
  return report;
}

/** What the command prints and its exit code, in its own process or relayed from the running server's. */
export type ImportOutcome = { code: number; out: string[]; err: string[] };

/** The import as an operator's command: the report, or why nothing was imported. */
export async function runImportCommand(dir: string, options: { check?: boolean } = {}): Promise<ImportOutcome> {
  try {
    const report = await importExport(dir, options);
    return { code: 0, out: [formatReport(report, options)], err: [] };
  } catch (error) {
    if (error instanceof ImportError) return { code: 1, out: [], err: [error.message] };
    logger.error({ err: error }, "import failed");
    return {
      code: 1,
      out: [],
      err: [`Nothing was imported: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}
