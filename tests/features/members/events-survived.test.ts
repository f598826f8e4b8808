import { describe, expect, it } from "vitest";
import { eventsSurvived } from "~/features/members/profiles.server";

describe("events survived", () => {
  const today = "2026-11-26";

  it("counts the attended events whose day has passed", () => {
    expect(eventsSurvived(["2025-05-16", "2026-11-20", "2026-11-26", "2027-08-13"], today)).toEqual({
      survived: 2,
      survivedOnOldSite: 0,
    });
  });

  describe("for a member of the old site", () => {
    const oldSite = { attended: 3, asOf: "2026-06-01" };

    it("starts from the old site's count, which covers the records of events before it was taken", () => {
      expect(eventsSurvived([], today, oldSite)).toEqual({ survived: 3, survivedOnOldSite: 3 });
      expect(eventsSurvived(["2025-05-16"], today, oldSite)).toEqual({ survived: 3, survivedOnOldSite: 3 });
    });

    it("adds the events attended from the day it was taken, once they have passed", () => {
      expect(eventsSurvived(["2025-05-16", "2026-06-05", "2026-11-20", "2027-08-13"], today, oldSite)).toEqual({
        survived: 5,
        survivedOnOldSite: 3,
      });
      expect(eventsSurvived(["2026-06-01"], today, oldSite)).toEqual({ survived: 4, survivedOnOldSite: 3 });
    });

    it("never counts fewer than this site's records, when they show more than the old site counted", () => {
      expect(
        eventsSurvived(["2024-01-05", "2024-06-07", "2025-05-16", "2026-06-05"], today, {
          attended: 1,
          asOf: "2026-06-01",
        }),
      ).toEqual({ survived: 4, survivedOnOldSite: 0 });
      expect(eventsSurvived(["2024-01-05", "2025-05-16"], today, { attended: 2, asOf: "2026-06-01" })).toEqual({
        survived: 2,
        survivedOnOldSite: 0,
      });
    });
  });
});
