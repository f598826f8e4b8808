import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { withTestDatabase } from "../../helpers/db";

withTestDatabase();

/**
 * A fresh site, and one upgraded from before the club could change its facts, shows exactly the
 * lists that were built into the code. Written out here, not read from the code's starting data,
 * so a change to that data is a change this test sees.
 */
describe("a site whose managers have changed nothing", () => {
  it("sells today's eighteen items at today's prices, in Hopewell Dollars, at every event", async () => {
    const { version, content } = await currentFacts("merchant");
    expect(version).toBe(0);
    expect(content.currency).toBe("Hopewell Dollars");
    expect(content.items.map(({ key, name, unit, priceCents }) => [key, name, unit, priceCents])).toEqual([
      ["meat", "Meat", "piece", 300],
      ["bandages", "10 Bandages", "pack", 2250],
      ["fabric", "Fabric", "bolt", 1300],
      ["coal", "Coal", "bag", 500],
      ["bullets", "20 Bullets", "pack", 775],
      ["raw_glass", "Raw Glass", "bag", 200],
      ["iron_ore", "Iron Ore", "piece", 250],
      ["iron_ingots", "Iron Ingots", "piece", 800],
      ["lead", "Lead", "piece", 300],
      ["seeds", "Seeds", "packet", 300],
      ["vials", "20 Vials", "pack", 4500],
      ["nails", "50 Nails", "pack", 4500],
      ["salt", "Salt", "bag", 300],
      ["spring_spacers", "5 Spring Spacers", "crate", 2000],
      ["springs", "5 Springs", "crate", 5600],
      ["cylinders", "5 Cylinders", "crate", 9800],
      ["hand_grips", "5 Hand Grips", "crate", 2800],
      ["wood_stocks", "5 Wood Stocks", "crate", 5600],
    ]);
    expect(content.items.every((item) => !item.retired && item.events === null)).toBe(true);
  });

  it("has today's cabins, in order", async () => {
    const { content } = await currentFacts("cabins");
    expect(content.filter((c) => !c.retired).map((c) => c.name)).toEqual([
      "Dragon's Hoard",
      "Arctic Fox",
      "Weasel Haunt",
      "Wisdom Owls",
      "Clash Stags",
      "Watch Nightingales",
      "Watchtower",
      "Camping",
    ]);
  });

  it("has today's four factions, ten common jobs and two jobs for one faction each", async () => {
    const { content } = await currentFacts("factions");
    expect(content.factions.map((f) => f.name)).toEqual([
      "US Survey Corp",
      "Northwest Mineral Corporation",
      "Union Research Initiative",
      "Homesteader",
    ]);
    expect(content.jobs.filter((j) => j.faction === null).map((j) => j.name)).toEqual([
      "Agrarian",
      "Apothecary",
      "Barkeep",
      "Blacksmith",
      "Carpenter",
      "Gunsmith",
      "Hunter / Trapper",
      "Merchant",
      "Miner",
      "Performer",
    ]);
    expect(content.jobs.filter((j) => j.faction !== null).map((j) => [j.name, j.faction])).toEqual([
      ["Soldier", "US Survey Corp"],
      ["Natural Scientist", "Union Research Initiative"],
    ]);
  });

  it("asks today's eleven post-event letter questions and fifteen application questions, all required", async () => {
    const pel = (await currentFacts("pel-questions")).content;
    expect(pel.map((q) => q.key)).toEqual([
      "scariness",
      "favoriteMoments",
      "enjoyment",
      "notableNpcs",
      "notablePcs",
      "improvements",
      "activities",
      "goals",
      "jobs",
      "drugs",
      "followUp",
    ]);
    expect(pel[0]!.label).toBe("How scary was the weekend for you, and which moments frightened you most?");
    expect(pel[1]!.hint).toBe("A short, anonymous highlight of this answer may be shared with the community.");
    const application = (await currentFacts("application-questions")).content;
    expect(application).toHaveLength(15);
    expect(application[0]).toMatchObject({ key: "larpExperience", label: "What larp experience do you have?" });
    expect(application.at(-1)).toMatchObject({ key: "referralSource", label: "How did you hear about Hopewell?" });
    expect([...pel, ...application].every((q) => q.required && !q.retired)).toBe(true);
  });

  it("points the rulebook viewer at the site's own document", async () => {
    expect((await currentFacts("rulebook")).content).toEqual({ source: "built-in" });
  });
});
