/**
 * The body rows of the first Markdown table in `text` whose header row has exactly these
 * headings, each row as its trimmed cells. Prettier pads a table's cells to line them up, so
 * tests find a table by its headings rather than by the header row's exact spacing.
 */
export function markdownTable(text: string, headings: readonly string[]): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => isRow(line) && sameCells(cellsOf(line), headings));
  if (start === -1) throw new Error(`No table with the headings ${headings.join(" | ")}`);
  const rows: string[][] = [];
  // The header row, then the delimiter row (|---|---|), then the body until the first non-row line.
  for (const line of lines.slice(start + 2)) {
    if (!isRow(line)) break;
    rows.push(cellsOf(line));
  }
  return rows;
}

function isRow(line: string): boolean {
  return line.trimStart().startsWith("|");
}

function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

function sameCells(cells: string[], headings: readonly string[]): boolean {
  return cells.length === headings.length && cells.every((cell, i) => cell === headings[i]);
}
