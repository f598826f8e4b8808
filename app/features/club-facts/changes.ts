import { KINDS } from "./kinds";
import type { ClubFactKind } from "~/platform/db/schema";

/** What a version of the club's facts changed from the one before, told as lines of the list. */
export type FactChanges = { added: string[]; removed: string[]; reordered: boolean };

/** The lines `after` has that `before` lacks and the other way round, and whether the rest moved. */
function changesBetween(before: string[], after: string[]): FactChanges {
  const had = new Set(before);
  const has = new Set(after);
  const added = after.filter((line) => !had.has(line));
  const removed = before.filter((line) => !has.has(line));
  const kept = (lines: string[], other: Set<string>) => lines.filter((line) => other.has(line)).join("\n");
  return { added, removed, reordered: kept(before, has) !== kept(after, had) };
}

/** What a save of `kind` changed, from the list before it to the list it saved. */
export function changesOf(kind: ClubFactKind, before: unknown, after: unknown): FactChanges {
  const lines = KINDS[kind].lines as (content: unknown) => string[];
  return changesBetween(lines(before), lines(after));
}
