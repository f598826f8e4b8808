import { COSTUME_PHOTO_WEEKS_BEFORE } from "./setting";

/**
 * The club's costume rule (docs/product.md#costume-rule): accepted players send a costume photo
 * COSTUME_PHOTO_WEEKS_BEFORE weeks before each event they are registered for; staff approve it
 * or ask for changes. Dates are calendar days ("2026-05-15"), as events are stored.
 */

/** The photo is due this many days before the event. */
export const COSTUME_DUE_DAYS_BEFORE = COSTUME_PHOTO_WEEKS_BEFORE * 7;

/** Reminder emails go this many days before the event, to those without an approved photo. */
export const COSTUME_REMINDER_DAYS = [21, 15] as const;
export type CostumeReminderDays = (typeof COSTUME_REMINDER_DAYS)[number];

/** Staff's verdicts: approved, or changes asked for (with a note the member reads). */
export const COSTUME_VERDICTS = ["approved", "changes_requested"] as const;
export type CostumeVerdict = (typeof COSTUME_VERDICTS)[number];

/** Where a member's costume stands for one event. */
export type CostumeStatus = "missing" | "waiting" | "changes_requested" | "approved";

export const COSTUME_STATUS_LABELS: Record<CostumeStatus, string> = {
  missing: "No photo yet",
  waiting: "Waiting for review",
  changes_requested: "Changes requested",
  approved: "Approved",
};

/** Photos a member may keep for one event. */
export const COSTUME_PHOTOS_PER_EVENT = 10;

/** The longest note staff may write with a verdict. */
export const COSTUME_NOTE_MAX = 2_000;

const DAY_MS = 24 * 60 * 60_000;

function dayNumber(isoDate: string): number {
  const [year, month, day] = isoDate.split("-").map(Number);
  return Date.UTC(year!, month! - 1, day!) / DAY_MS;
}

/** "2026-05-15" minus `days` days, as "2026-05-01". */
export function daysBefore(isoDate: string, days: number): string {
  return new Date((dayNumber(isoDate) - days) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The day the costume photo for an event on `eventDate` is due. */
export function costumeDueDate(eventDate: string): string {
  return daysBefore(eventDate, COSTUME_DUE_DAYS_BEFORE);
}

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/** "due in 5 days", "due tomorrow", "due today", "overdue by 1 day", seen from the day `today`. */
export function costumeCountdown(dueDate: string, today: string): string {
  const left = daysBetween(today, dueDate);
  if (left > 1) return `due in ${days(left)}`;
  if (left === 1) return "due tomorrow";
  if (left === 0) return "due today";
  return `overdue by ${days(-left)}`;
}

/**
 * The status from the photos and the latest verdict: a verdict counts for the photos it saw,
 * so a photo sent after it (`newestPhotoAt` later than `reviewedAt`) is waiting for review again.
 */
export function costumeStatus(
  photoCount: number,
  newestPhotoAt: Date | null,
  review: { verdict: CostumeVerdict; reviewedAt: Date } | null,
): CostumeStatus {
  if (photoCount === 0 || !newestPhotoAt) return "missing";
  if (!review || newestPhotoAt.getTime() > review.reviewedAt.getTime()) return "waiting";
  return review.verdict;
}
