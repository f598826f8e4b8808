import { describe, expect, it } from "vitest";
import { formatEventDate } from "~/lib/dates";

describe("event dates", () => {
  it("read as weekday and long date, in any time zone", () => {
    expect(formatEventDate("2026-05-15")).toBe("Friday, May 15, 2026");
    expect(formatEventDate("2027-01-01")).toBe("Friday, January 1, 2027");
  });
});
