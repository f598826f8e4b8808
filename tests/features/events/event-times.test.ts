import { describe, expect, it } from "vitest";
import { ARRIVAL, EVENT_WEEKEND, formatClock } from "~/game/setting";
import { addDays, clubToday, formatClubClockWithZone } from "~/lib/dates";
import { costumePhotoDueDate, memberEventStatus, type MemberEventRow } from "~/features/events/event-statuses.server";
import { dayAfterEvent, eventTimes, isoWithOffset } from "~/features/events/event-times.server";

describe("an event's weekend", () => {
  it("states the location page's arrival times from the same facts", () => {
    expect(ARRIVAL).toEqual({ venueOpens: "2:00 PM Friday", gameStarts: "10:00 PM Friday", arriveEarlyHours: 1 });
    expect(formatClock({ hour: 0, minute: 5 })).toBe("12:05 AM");
    expect(formatClock({ hour: 12, minute: 30 })).toBe("12:30 PM");
    expect(EVENT_WEEKEND.lastDayOffset).toBe(2);
  });

  it("places the club's clock times at the right instants on either side of daylight saving time", () => {
    const summer = eventTimes("2027-06-18", "America/New_York");
    expect(new Date(summer.venueOpens.getTime()).toISOString()).toBe("2027-06-18T18:00:00.000Z");
    expect(new Date(summer.arriveBy.getTime()).toISOString()).toBe("2027-06-19T01:00:00.000Z");
    expect(new Date(summer.gameStarts.getTime()).toISOString()).toBe("2027-06-19T02:00:00.000Z");
    expect(new Date(summer.ends.getTime()).toISOString()).toBe("2027-06-21T04:00:00.000Z");
    expect(isoWithOffset(summer.venueOpens)).toBe("2027-06-18T14:00:00-04:00");
    expect(formatClubClockWithZone(summer.venueOpens, "America/New_York")).toBe("2:00 PM EDT");

    const winter = eventTimes("2027-01-15", "America/New_York");
    expect(new Date(winter.venueOpens.getTime()).toISOString()).toBe("2027-01-15T19:00:00.000Z");
    expect(isoWithOffset(winter.gameStarts)).toBe("2027-01-15T22:00:00-05:00");
    expect(formatClubClockWithZone(winter.gameStarts, "America/New_York")).toBe("10:00 PM EST");
    // Clocks go forward on Sunday March 14, 2027: the weekend starts in winter time and ends in summer time.
    const spring = eventTimes("2027-03-12", "America/New_York");
    expect(new Date(spring.venueOpens.getTime()).toISOString()).toBe("2027-03-12T19:00:00.000Z");
    expect(new Date(spring.ends.getTime()).toISOString()).toBe("2027-03-15T04:00:00.000Z");
  });

  it("is over the day after its Sunday; the costume photo is due two weeks before", () => {
    expect(dayAfterEvent("2027-03-12")).toBe("2027-03-15");
    expect(addDays("2027-01-01", -1)).toBe("2026-12-31");
    expect(costumePhotoDueDate("2027-03-12")).toBe("2027-02-26");
    expect(clubToday(new Date("2027-03-13T03:30:00Z"))).toBe("2027-03-12");
    expect(clubToday(new Date("2027-03-13T03:30:00Z"), "UTC")).toBe("2027-03-13");
  });

  it("adds days across months, leap days and years, the same however often it is asked (answers are kept)", () => {
    const reference = (day: string, days: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    for (let round = 0; round < 2; round++) {
      for (const day of ["2028-02-28", "2028-02-29", "2027-02-28", "2026-12-31", "2027-01-01"]) {
        for (const days of [-400, -366, -31, -14, -1, 0, 1, 11, 14, 29, 365, 366])
          expect(addDays(day, days), `${day} ${days}`).toBe(reference(day, days));
      }
    }
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-02-28", 11)).toBe("2028-03-10");
  });

  it("makes a member's status from their rows on a given day", () => {
    const row: MemberEventRow = {
      eventId: "e",
      title: "T",
      date: "2027-03-12",
      attendance: "paid",
      cabin: "Watchtower",
      orders: 2,
      orderCents: 2850,
      ordersHandedOut: 1,
      pelSent: false,
    };
    const before = memberEventStatus({ date: "2027-03-12" }, row, "waiting", "2027-02-01");
    expect(before).toEqual({
      registration: "registered",
      cabin: "Watchtower",
      costumePhotoDue: "2027-02-26",
      costumePhoto: "waiting",
      orders: { count: 2, totalCents: 2850, handedOut: 1 },
      pel: null,
    });
    // On Sunday the weekend is still on; on Monday the letter is due, until it is sent.
    expect(memberEventStatus({ date: "2027-03-12" }, row, "waiting", "2027-03-14").pel).toBeNull();
    expect(memberEventStatus({ date: "2027-03-12" }, row, "waiting", "2027-03-15").pel).toBe("due");
    expect(memberEventStatus({ date: "2027-03-12" }, { ...row, pelSent: true }, "waiting", "2027-03-15").pel).toBe(
      "sent",
    );
    expect(memberEventStatus({ date: "2027-03-12" }, undefined, "waiting", "2027-03-15")).toMatchObject({
      registration: "not registered",
      cabin: null,
      pel: null,
      orders: { count: 0, totalCents: 0 },
    });
  });
});
