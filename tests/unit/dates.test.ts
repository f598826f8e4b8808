import { describe, expect, it } from "vitest";
import { clubToday, formatClubTime, formatEventDate, setClubTimeZone } from "~/lib/dates";

describe("event dates", () => {
  it("read as weekday and long date, in any time zone", () => {
    expect(formatEventDate("2026-05-15")).toBe("Friday, May 15, 2026");
    expect(formatEventDate("2027-01-01")).toBe("Friday, January 1, 2027");
    // Read again (kept after the first time): the same.
    expect(formatEventDate("2026-05-15")).toBe("Friday, May 15, 2026");
  });
});

describe("a moment on the club's clock", () => {
  it("reads to the minute, kept by the minute it shows, and each time zone on its own", () => {
    try {
      setClubTimeZone("America/New_York");
      expect(formatClubTime("2026-11-22T13:15:59.999Z")).toBe("Nov 22, 2026, 8:15 AM");
      // Read again, and later in the same minute: the same; the next minute is its own.
      expect(formatClubTime(new Date("2026-11-22T13:15:00.000Z"))).toBe("Nov 22, 2026, 8:15 AM");
      expect(formatClubTime("2026-11-22T13:16:00.000Z")).toBe("Nov 22, 2026, 8:16 AM");
      setClubTimeZone("Europe/London");
      expect(formatClubTime("2026-11-22T13:15:30.000Z")).toBe("Nov 22, 2026, 1:15 PM");
      expect(() => formatClubTime("not a moment")).toThrow(RangeError);
    } finally {
      setClubTimeZone("America/New_York");
    }
  });
});

describe("the club's today", () => {
  it("turns at midnight where the club plays, to the millisecond, though it is kept per minute", () => {
    // New York in May is four hours behind UTC.
    expect(clubToday(new Date("2026-05-02T03:59:00.000Z"))).toBe("2026-05-01");
    expect(clubToday(new Date("2026-05-02T03:59:59.999Z"))).toBe("2026-05-01");
    expect(clubToday(new Date("2026-05-02T04:00:00.000Z"))).toBe("2026-05-02");
    expect(clubToday(new Date("2026-05-02T04:00:30.000Z"))).toBe("2026-05-02");
  });

  it("is read for each time zone on its own", () => {
    const moment = new Date("2026-05-02T03:30:00Z");
    expect(clubToday(moment, "America/New_York")).toBe("2026-05-01");
    expect(clubToday(moment, "Europe/London")).toBe("2026-05-02");
    expect(clubToday(moment, "Asia/Kolkata")).toBe("2026-05-02");
    expect(clubToday(moment, "America/New_York")).toBe("2026-05-01");
  });

  it("takes a zone whose days begin on the half hour at its word", () => {
    // Kolkata is five and a half hours ahead: its 2 May begins at 18:30 UTC on 1 May.
    expect(clubToday(new Date("2026-05-01T18:29:59Z"), "Asia/Kolkata")).toBe("2026-05-01");
    expect(clubToday(new Date("2026-05-01T18:30:00Z"), "Asia/Kolkata")).toBe("2026-05-02");
  });
});
