import { describe, expect, it } from "vitest";
import { costumeCountdown, costumeDueDate, costumeStatus, daysBefore, daysBetween } from "~/game/costume";
import { clubToday } from "~/lib/dates";
import { reminderDue } from "~/features/costume/costume-reminders.server";

describe("the costume photo's due date", () => {
  it("is two weeks before the event, across months and years", () => {
    expect(costumeDueDate("2026-05-15")).toBe("2026-05-01");
    expect(costumeDueDate("2027-01-08")).toBe("2026-12-25");
    // March 2026 has the clocks change in New England: calendar days are counted, not hours.
    expect(costumeDueDate("2026-03-20")).toBe("2026-03-06");
    expect(daysBefore("2028-03-01", 1)).toBe("2028-02-29");
    expect(daysBetween("2026-05-01", "2026-05-15")).toBe(14);
    expect(daysBetween("2026-05-15", "2026-05-01")).toBe(-14);
  });

  it("counts down in days and then says how late it is", () => {
    expect(costumeCountdown("2026-05-01", "2026-04-26")).toBe("due in 5 days");
    expect(costumeCountdown("2026-05-01", "2026-04-30")).toBe("due tomorrow");
    expect(costumeCountdown("2026-05-01", "2026-05-01")).toBe("due today");
    expect(costumeCountdown("2026-05-01", "2026-05-02")).toBe("overdue by 1 day");
    expect(costumeCountdown("2026-05-01", "2026-05-03")).toBe("overdue by 2 days");
  });

  it("counts the club's day in New England, not the server's", () => {
    // 03:00 UTC on May 2 is still the evening of May 1 in Connecticut.
    expect(clubToday(new Date("2026-05-02T03:00:00Z"))).toBe("2026-05-01");
    expect(clubToday(new Date("2026-05-02T05:00:00Z"))).toBe("2026-05-02");
  });
});

describe("the costume status", () => {
  const at = (iso: string) => new Date(iso);
  it("follows the photos and the latest verdict, which counts for the photos it saw", () => {
    expect(costumeStatus(0, null, null)).toBe("missing");
    expect(costumeStatus(0, null, { verdict: "approved", reviewedAt: at("2026-05-01T10:00:00Z") })).toBe("missing");
    expect(costumeStatus(1, at("2026-05-01T09:00:00Z"), null)).toBe("waiting");
    expect(
      costumeStatus(1, at("2026-05-01T09:00:00Z"), { verdict: "approved", reviewedAt: at("2026-05-01T10:00:00Z") }),
    ).toBe("approved");
    expect(
      costumeStatus(2, at("2026-05-01T09:00:00Z"), {
        verdict: "changes_requested",
        reviewedAt: at("2026-05-01T10:00:00Z"),
      }),
    ).toBe("changes_requested");
    // A photo sent after the verdict goes back for review.
    expect(
      costumeStatus(2, at("2026-05-01T11:00:00Z"), { verdict: "approved", reviewedAt: at("2026-05-01T10:00:00Z") }),
    ).toBe("waiting");
    expect(
      costumeStatus(2, at("2026-05-01T11:00:00Z"), {
        verdict: "changes_requested",
        reviewedAt: at("2026-05-01T10:00:00Z"),
      }),
    ).toBe("waiting");
  });
});

describe("the reminder due", () => {
  it("is the 21-day one from 21 days before, the 15-day one from 15 days before until the event", () => {
    expect([30, 22].map(reminderDue)).toEqual([null, null]);
    expect([21, 20, 16].map(reminderDue)).toEqual([21, 21, 21]);
    expect([15, 14, 1, 0].map(reminderDue)).toEqual([15, 15, 15, 15]);
    expect(reminderDue(-1)).toBeNull();
  });
});
