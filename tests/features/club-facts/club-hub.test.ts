import { describe, expect, it } from "vitest";
import { currentFacts, saveFacts } from "~/features/club-facts/club-facts.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

withTestDatabase();
const app = withAppServer();

describe("the club's pages (/tools/club)", () => {
  it("lists every page of the club's facts, and who saved each last", async () => {
    const manager = await signedInMember("manager");
    const name = `${manager.firstName} ${manager.lastName}`;
    const open = async () => (await fetch(`${app().url}/tools/club`, { headers: { Cookie: manager.cookie } })).text();
    const before = await open();
    for (const title of [
      "The Welcome",
      "The FAQ",
      "The Location Page",
      "The Rulebook",
      "The Merchant",
      "The Cabins",
      "Factions and Jobs",
      "Post-Event Letter Questions",
      "Application Questions",
    ])
      expect(before).toContain(`>${title}</a>`);
    expect(before).toContain("As the site shipped: never changed");
    const cabins = await currentFacts("cabins");
    await saveFacts("cabins", cabins.content.slice(1), manager, cabins.version);
    expect(await open()).toContain(`by ${name}`);
    expect(await open()).toMatch(/Version 1, saved [^<]+ by /);
  });
});
