import crypto from "node:crypto";
import { z } from "zod";
import { STARTING_CABINS, type Cabin } from "~/game/cabins";
import { EMAIL_MAX } from "~/features/accounts/auth.form";
import { isOpenTo } from "~/features/club-facts/factions/faction-choices";
import { startingFactions } from "~/features/club-facts/factions/factions.facts";
import { isUuid } from "~/lib/ids";
import { countOf } from "~/lib/plural";

/**
 * Reading the old export's cells: timestamps, JSON, emails, and the game's names matched
 * loosely. Each returns the value or null; the caller decides whether null skips the row.
 */

/** A row the import leaves out, and why (the report counts the reasons). */
export class Skip extends Error {
  /** `reason` is what the report counts ("unknown faction"); `detail` names the value ("\"Pirates\""). */
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(detail ? `${reason} ${detail}` : reason);
    this.name = "Skip";
  }
}

/** ISO 8601 (and PostgreSQL's own "2024-05-01 12:00:00.123+00"); a time without a zone is UTC. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export function parseTimestamp(value: string | null): Date | null {
  if (value === null) return null;
  const match = TIMESTAMP.exec(value.trim());
  if (!match) return null;
  const [, day, time = "00:00:00", zone = "Z"] = match;
  const offset =
    zone.toUpperCase() === "Z"
      ? "Z"
      : zone.length === 3
        ? `${zone}:00`
        : zone.includes(":")
          ? zone
          : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  // Date keeps milliseconds: microseconds are cut the same way on every run.
  const seconds = time.length === 5 ? `${time}:00` : time.replace(/(\.\d{3})\d+$/, "$1");
  const date = new Date(`${day}T${seconds}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A timestamp the row needs: a missing or unreadable one skips the row. */
export function requiredTimestamp(value: string | null, column: string): Date {
  const date = parseTimestamp(value);
  if (!date) throw new Skip(value === null ? `no ${column}` : `unreadable ${column}`);
  return date;
}

export function parseJson(value: string | null, column: string): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new Skip(`${column} is not JSON`);
  }
}

const Email = z.email();

export function isEmail(value: string | null): value is string {
  return value !== null && value.length <= EMAIL_MAX && Email.safeParse(value.trim()).success;
}

export function requiredUuid(value: string | null, column: string): string {
  if (!isUuid(value)) throw new Skip(value === null ? `no ${column}` : `${column} is not a UUID`);
  return value.toLowerCase();
}

/**
 * A UUID made from `parts`: the same row gives the same id on every run, so rows the old
 * tables kept without an id are recognised when the import runs again.
 */
export function stableUuid(...parts: string[]): string {
  const hex = crypto.createHash("sha256").update(parts.join("\u0000")).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A name without case, spaces or punctuation: "Hunter/Trapper" and "hunter / trapper" are one. */
export function looseName(value: string): string {
  return value
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

function matcher<T extends string>(names: readonly T[]): (value: string | null) => T | null {
  const byLoose = new Map(names.map((name) => [looseName(name), name]));
  return (value) => (value === null ? null : (byLoose.get(looseName(value)) ?? null));
}

/** The old site's names are matched to the lists a site starts with: the old site had no others. */
const STARTING = startingFactions();

export const matchFaction: (value: string | null) => string | null = matcher(STARTING.factions.map((f) => f.name));
export const matchJob: (value: string | null) => string | null = matcher(STARTING.jobs.map((job) => job.name));
export const matchCabin: (value: string | null) => Cabin | null = matcher(STARTING_CABINS);

export function jobFitsFaction(faction: string, job: string): boolean {
  const entry = STARTING.jobs.find((one) => one.name === job);
  return entry !== undefined && isOpenTo(entry, faction);
}

/** A text cell the site needs as text: an empty cell becomes the empty string. */
export function text(value: string | null): string {
  return value ?? "";
}

/** Whether a cell is longer than the site's own form lets anyone write in that field. */
export function tooLong(value: string | null, max: number): boolean {
  return value !== null && value.length > max;
}

/** What the report says of a cell over its limit. */
export function overLimit(value: string, max: number): string {
  return `(${countOf(value.length, "character")}; the site takes at most ${max.toLocaleString("en-US")})`;
}

/**
 * A text cell held to the limit the site's form sets for the field (app/features/<feature>/*.form.ts), so an import
 * cannot put in what no member could have written: a longer cell skips the row.
 */
export function limitedText(value: string | null, column: string, max: number): string {
  if (tooLong(value, max)) throw new Skip(`${column} too long`, overLimit(value!, max));
  return text(value);
}

/** Shortens a cell for the report, so a long or hostile value cannot flood it. */
export function shown(value: string | null): string {
  if (value === null) return "(empty)";
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const printable = value.replace(/[\u0000-\u001F\u007F]/g, " ");
  return JSON.stringify(printable.length > 60 ? `${printable.slice(0, 57)}...` : printable);
}
