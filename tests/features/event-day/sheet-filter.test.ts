import { describe, expect, it } from "vitest";
import { cabinAnchor, filterSheet, NO_FILTER } from "~/features/event-day/sheet-filter";

const attendee = (userId: string, name: string, characterName: string | null, email: string | null, orders = 0) => ({
  userId,
  name,
  characterName,
  email,
  orders: Array.from({ length: orders }, (_, i) => ({ id: `${userId}-${i}` })),
});

const cabins = [
  {
    cabin: "Arctic Fox",
    attendees: [
      attendee("a", "Ada Ashby", "Widow Quill", "ada@example.com", 2),
      attendee("b", "José Ortega", null, "jo@example.com"),
    ],
  },
  { cabin: "Dragon's Hoard", attendees: [attendee("c", "Cy O'Brien", "Doc Holloway", null, 1)] },
  { cabin: "Not assigned", attendees: [attendee("d", "Dee Ashby", "Old Dee", "dee@example.com")] },
];

const names = (shown: typeof cabins) => shown.map(({ cabin, attendees }) => [cabin, attendees.map((a) => a.userId)]);

describe("finding attendees on the event-day sheet", () => {
  it("shows everyone, in their cabins, without a filter", () => {
    expect(filterSheet(cabins, NO_FILTER)).toEqual(cabins);
    expect(filterSheet(cabins, { query: "   ", ordersOnly: false })).toEqual(cabins);
  });

  it("matches every word typed in the name, character or email, ignoring case and accents; empty cabins go", () => {
    expect(names(filterSheet(cabins, { query: "ashby", ordersOnly: false }))).toEqual([
      ["Arctic Fox", ["a"]],
      ["Not assigned", ["d"]],
    ]);
    expect(names(filterSheet(cabins, { query: "ASHBY dee", ordersOnly: false }))).toEqual([["Not assigned", ["d"]]]);
    expect(names(filterSheet(cabins, { query: "jose", ordersOnly: false }))).toEqual([["Arctic Fox", ["b"]]]);
    expect(names(filterSheet(cabins, { query: "holloway", ordersOnly: false }))).toEqual([["Dragon's Hoard", ["c"]]]);
    expect(names(filterSheet(cabins, { query: "o'brien", ordersOnly: false }))).toEqual([["Dragon's Hoard", ["c"]]]);
    expect(names(filterSheet(cabins, { query: "jo@example", ordersOnly: false }))).toEqual([["Arctic Fox", ["b"]]]);
    expect(filterSheet(cabins, { query: "nobody", ordersOnly: false })).toEqual([]);
  });

  it("keeps only attendees with orders to hand out, with the search too", () => {
    expect(names(filterSheet(cabins, { query: "", ordersOnly: true }))).toEqual([
      ["Arctic Fox", ["a"]],
      ["Dragon's Hoard", ["c"]],
    ]);
    expect(names(filterSheet(cabins, { query: "ashby", ordersOnly: true }))).toEqual([["Arctic Fox", ["a"]]]);
  });

  it("keeps the attendee just marked in sight, whatever the filter", () => {
    expect(names(filterSheet(cabins, { query: "", ordersOnly: true }, "d"))).toEqual([
      ["Arctic Fox", ["a"]],
      ["Dragon's Hoard", ["c"]],
      ["Not assigned", ["d"]],
    ]);
  });

  it("gives each cabin an anchor that is a valid id", () => {
    expect(cabinAnchor("Dragon's Hoard")).toBe("cabin-dragon-s-hoard");
    expect(cabinAnchor("Not assigned")).toBe("cabin-not-assigned");
    expect(cabinAnchor("Arctic Fox")).toMatch(/^[a-z][a-z0-9-]*$/);
  });
});
