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

describe("the audit log's entries for the club's facts", () => {
  it("say which page, which version, and what the save took away and added", async () => {
    const manager = await signedInMember("manager");
    const faq = await currentFacts("faq");
    const reworded = faq.content.map((entry, n) =>
      n === 0 ? { ...entry, question: "How does a settler join Hopewell?" } : entry,
    );
    expect(await saveFacts("faq", reworded, manager, faq.version)).toMatchObject({ ok: true });
    const html = await (await fetch(`${app().url}/tools?tab=audit`, { headers: { Cookie: manager.cookie } })).text();
    const entry = html.slice(html.indexOf("changed the club&#x27;s facts"));
    expect(entry).toMatch(/The FAQ version \d+/);
    expect(entry).toContain("1 added, 1 removed");
    expect(entry).toContain(`${faq.content[0]!.question}: `);
    expect(entry).toContain("How does a settler join Hopewell?: ");
    // The lists themselves stay on the server: only what changed is sent.
    expect(html).not.toContain(faq.content.at(-1)!.question);
  });
});
