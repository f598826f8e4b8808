import { formatDollars } from "~/game/merchant";
import { countOf } from "~/lib/plural";

/** What the report counts, one line each: the tables, and the members' passwords apart from their profiles. */
export const REPORT_TABLES = [
  "profiles",
  "passwords",
  "events",
  "applications",
  "characters",
  "pels",
  "merchant_orders",
  "event_attendance",
  "research",
  "letters",
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

/**
 * imported: new rows; updated: rows the export holds a newer version of; unchanged: rows
 * already imported as they are; kept: rows changed on this site since (newer than the
 * export's), left as they are; skipped: rows not imported, each with its reason.
 */
export type TableCounts = { imported: number; updated: number; unchanged: number; kept: number; skipped: number };

export type ReportLine = { table: ReportTable; file: string; line: number; reason: string; message: string };

export type ImportReport = {
  dir: string;
  tables: Record<ReportTable, TableCounts>;
  skipped: ReportLine[];
  /** Rows imported as recorded but worth a look (an order total that differs from the price list, a value read another way). */
  flagged: ReportLine[];
  files: { copied: number; alreadyStored: number };
  /** Members whose count of events on the old site was taken this run, or was here already (old-site-events.server.ts). */
  oldSiteEvents: { taken: number; alreadyHere: number };
};

export function emptyReport(dir: string): ImportReport {
  const tables = Object.fromEntries(
    REPORT_TABLES.map((table) => [table, { imported: 0, updated: 0, unchanged: 0, kept: 0, skipped: 0 }]),
  ) as Record<ReportTable, TableCounts>;
  return {
    dir,
    tables,
    skipped: [],
    flagged: [],
    files: { copied: 0, alreadyStored: 0 },
    oldSiteEvents: { taken: 0, alreadyHere: 0 },
  };
}

/** True when the run wrote anything. */
export function reportChanged(report: ImportReport): boolean {
  return (
    report.oldSiteEvents.taken > 0 ||
    Object.values(report.tables).some((counts) => counts.imported + counts.updated > 0)
  );
}

/** How often each reason skipped a row of `table`. */
function reasons(lines: ReportLine[], table: ReportTable): [string, number][] {
  const counts = new Map<string, number>();
  for (const line of lines) if (line.table === table) counts.set(line.reason, (counts.get(line.reason) ?? 0) + 1);
  return [...counts.entries()];
}

/** At most this many rows are listed one by one under each heading; the counts cover them all. */
const LISTED = 200;

function listed(lines: ReportLine[]): string[] {
  const shown = lines.slice(0, LISTED).map((line) => `  ${line.file} line ${line.line}: ${line.message}`);
  if (lines.length > LISTED) shown.push(`  ... and ${lines.length - LISTED} more`);
  return shown;
}

/** The report as the operator reads it. */
export function formatReport(report: ImportReport, options: { check?: boolean } = {}): string {
  const header = ["table", "imported", "updated", "unchanged", "kept (newer here)", "skipped"];
  const rows = REPORT_TABLES.map((table) => {
    const c = report.tables[table];
    return [table, c.imported, c.updated, c.unchanged, c.kept, c.skipped].map(String);
  });
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const out = [
    options.check
      ? `Checked ${report.dir}: every file is readable. Nothing was imported; this is what the import would do.`
      : `Imported ${report.dir} in one transaction.`,
    "",
    line(header),
    ...rows.map(line),
    "",
  ];
  out.push(
    `Research files: ${report.files.copied} ${options.check ? "to copy" : "copied"} into the site's storage, ${report.files.alreadyStored} already there.`,
  );
  out.push(
    `Events attended on the old site (events_attended): taken for ${countOf(report.oldSiteEvents.taken, "member")} as the start of their Events Survived, ${report.oldSiteEvents.alreadyHere} already here.`,
  );
  if (report.skipped.length > 0) {
    out.push("", `Skipped ${report.skipped.length} rows:`);
    for (const table of REPORT_TABLES) {
      const why = reasons(report.skipped, table);
      if (why.length > 0) out.push(`  ${table}: ${why.map(([reason, n]) => `${n} ${reason}`).join(", ")}`);
    }
    out.push(...listed(report.skipped));
  }
  if (report.flagged.length > 0)
    out.push("", `Flagged ${report.flagged.length} rows (imported as recorded):`, ...listed(report.flagged));
  if (!reportChanged(report)) out.push("", "Nothing changed: everything in the export was already here.");
  return out.join("\n");
}

export function dollars(cents: number): string {
  return formatDollars(cents);
}
