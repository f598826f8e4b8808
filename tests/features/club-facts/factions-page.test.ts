import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { INVALID_JOB, RETIRED_FACTION, RETIRED_JOB } from "~/features/members/character.limits";
import { characters } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

const get = async (path: string, cookie: string) =>
  (await fetch(`${app().url}${path}`, { headers: { Cookie: cookie } })).text();

async function pageFields(cookie: string): Promise<Record<string, string>> {
  return formFieldsOf(await get("/tools/club/factions", cookie));
}

/** The row of the form whose `kind` ("faction" or "job") is named `name`. */
function rowOf(fields: Record<string, string>, kind: "faction" | "job", name: string): number {
  const key = Object.keys(fields).find((k) => k.startsWith(`${kind}-name-`) && fields[k] === name);
  if (!key) throw new Error(`no ${kind} ${name} on the form`);
  return Number(key.slice(`${kind}-name-`.length));
}

/** The form's fields with a new job in its blank row. */
function withNewJob(fields: Record<string, string>, name: string, faction: string) {
  const n = Number(fields["job-count"]) - 1;
  return { ...fields, [`job-name-${n}`]: name, [`job-faction-${n}`]: faction };
}

const save = (fields: Record<string, string>, cookie: string) =>
  postForm(app().url, "/tools/club/factions", { ...fields, intent: "save" }, cookie);

/** A character form as a member sends it. */
const character = (overrides: Record<string, string> = {}) => ({
  characterName: "Ruth Calloway",
  faction: "Homesteader",
  job: "Miner",
  backstory: "Came for the silver.",
  ...overrides,
});

/** The options of the character form's select `name`, as the page offers them (without JavaScript: every one). */
async function optionsOf(name: "faction" | "job", cookie: string): Promise<string[]> {
  const html = readable(await get("/character", cookie));
  const start = html.indexOf(`name="${name}"`);
  const select = html.slice(start, html.indexOf("</select>", start));
  return [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].slice(1).map((match) => match[2]!);
}

describe("the managers' factions and jobs page", () => {
  it("adds, renames (jobs follow), retires and reorders; refuses a stale form; brings back the starting list", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(manager.cookie);
    expect(fields["faction-name-0"]).toBe("US Survey Corp");
    expect(fields[`job-faction-${rowOf(fields, "job", "Soldier")}`]).toBe("US Survey Corp");
    expect(fields[`job-faction-${rowOf(fields, "job", "Miner")}`]).toBe("");

    const newFaction = Number(fields["faction-count"]) - 1;
    const typed = {
      ...withNewJob(fields, "Sheriff", "Homesteader"),
      [`faction-name-${rowOf(fields, "faction", "US Survey Corp")}`]: "US Survey Corps",
      [`faction-name-${newFaction}`]: "Pinkertons",
      [`faction-position-${rowOf(fields, "faction", "Homesteader")}`]: "1",
      [`job-retired-${rowOf(fields, "job", "Barkeep")}`]: "on",
    };
    const saved = await save(typed, manager.cookie);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved: the factions and jobs are now version 1.");
    const { content } = await currentFacts("factions");
    expect(content.factions).toEqual([
      { name: "Homesteader", retired: false },
      { name: "US Survey Corps", retired: false },
      { name: "Northwest Mineral Corporation", retired: false },
      { name: "Union Research Initiative", retired: false },
      { name: "Pinkertons", retired: false },
    ]);
    // The job open to the renamed faction follows it; no job is left open to a name not in the list.
    expect(content.jobs.find((job) => job.name === "Soldier")).toEqual({
      name: "Soldier",
      faction: "US Survey Corps",
      retired: false,
    });
    expect(content.jobs.at(-1)).toEqual({ name: "Sheriff", faction: "Homesteader", retired: false });
    expect(content.jobs.find((job) => job.name === "Barkeep")!.retired).toBe(true);
    const page = visibleText(await get("/tools/club/factions", manager.cookie));
    expect(page).toContain("Version 1");
    expect(page).toContain("5 factions, 12 jobs");

    const stale = await save(typed, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");

    const back = await postForm(
      app().url,
      "/tools/club/factions",
      { intent: "restore", restore: "0", version: "1" },
      manager.cookie,
    );
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    expect((await currentFacts("factions")).content.factions.map((f) => f.name)).toEqual([
      "US Survey Corp",
      "Northwest Mineral Corporation",
      "Union Research Initiative",
      "Homesteader",
    ]);
  });

  it("refuses two of one name and a job open to a faction the list does not hold, marking the row", async () => {
    const manager = await signedInMember("manager");
    const before = await currentFacts("factions");
    const fields = await pageFields(manager.cookie);
    const newJob = Number(fields["job-count"]) - 1;

    const twice = await save(withNewJob(fields, " miner ", ""), manager.cookie);
    expect(twice.status).toBe(400);
    const html = readable(await twice.text());
    expect(html).toContain("Some factions or jobs need a change: see the marked fields.");
    expect(html.indexOf("Another job has this name: give each its own.")).toBeGreaterThan(
      html.indexOf(`name="job-name-${newJob}"`),
    );

    const factionTwice = await save(
      { ...fields, [`faction-name-${Number(fields["faction-count"]) - 1}`]: "HOMESTEADER" },
      manager.cookie,
    );
    expect(await factionTwice.text()).toContain("Another faction has this name: give each its own.");

    const nowhere = await save(withNewJob(fields, "Detective", "Pinkertons"), manager.cookie);
    expect(nowhere.status).toBe(400);
    expect(await nowhere.text()).toContain("Choose one of the factions for this job, or every faction.");

    const blank = await save({ ...fields, "faction-name-1": "" }, manager.cookie);
    expect(await blank.text()).toContain("Name the faction, up to 60 characters.");
    expect(await currentFacts("factions")).toEqual(before);
  });

  it("offers and accepts a job added for one faction only for that faction", async () => {
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");
    const fields = await pageFields(manager.cookie);
    expect((await save(withNewJob(fields, "Sheriff", "Homesteader"), manager.cookie)).status).toBe(200);

    expect(await optionsOf("job", player.cookie)).toContain("Sheriff");
    expect(visibleText(await get("/character", player.cookie))).toContain(
      "Soldier is open only to the US Survey Corp, Natural Scientist only to the Union Research Initiative, Sheriff only to the Homesteader.",
    );
    const refused = await postForm(
      app().url,
      "/character",
      character({ faction: "US Survey Corp", job: "Sheriff" }),
      player.cookie,
    );
    expect(refused.status).toBe(400);
    expect(readable(await refused.text())).toContain(INVALID_JOB);
    const accepted = await postForm(app().url, "/character", character({ job: "Sheriff" }), player.cookie);
    expect(await accepted.text()).toContain("Character Created!");
    const [row] = await db().select().from(characters).where(eq(characters.userId, player.id));
    expect(row).toMatchObject({ faction: "Homesteader", job: "Sheriff" });
  });

  it("lets a character with a retired job and faction open and save, but not switch to another retired one", async () => {
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");
    expect((await postForm(app().url, "/character", character({ job: "Blacksmith" }), player.cookie)).status).toBe(200);

    const fields = await pageFields(manager.cookie);
    const retired = await save(
      {
        ...fields,
        [`faction-retired-${rowOf(fields, "faction", "Homesteader")}`]: "on",
        [`job-retired-${rowOf(fields, "job", "Blacksmith")}`]: "on",
        [`job-retired-${rowOf(fields, "job", "Gunsmith")}`]: "on",
      },
      manager.cookie,
    );
    expect(retired.status).toBe(200);

    // The form opens with the character's own faction and job, marked, and nobody else is offered them.
    expect(await optionsOf("faction", player.cookie)).toContain("Homesteader (retired)");
    expect(await optionsOf("job", player.cookie)).toContain("Blacksmith (retired)");
    expect(await optionsOf("job", player.cookie)).not.toContain("Gunsmith");
    const opened = formFieldsOf(await get("/character", player.cookie));
    expect(opened).toMatchObject({ faction: "Homesteader", job: "Blacksmith", characterName: "Ruth Calloway" });
    const newcomer = await signedInMember("player");
    expect(await optionsOf("faction", newcomer.cookie)).not.toContain("Homesteader (retired)");
    expect(await optionsOf("job", newcomer.cookie)).not.toContain("Blacksmith (retired)");

    const unchanged = await postForm(
      app().url,
      "/character",
      { ...opened, backstory: "Still here after the mine closed." },
      player.cookie,
    );
    expect(await unchanged.text()).toContain("Character Saved!");
    const toRetired = await postForm(app().url, "/character", { ...opened, job: "Gunsmith" }, player.cookie);
    expect(toRetired.status).toBe(400);
    expect(readable(await toRetired.text())).toContain(RETIRED_JOB);
    const otherRetired = await postForm(app().url, "/character", character({ job: "Gunsmith" }), newcomer.cookie);
    expect(readable(await otherRetired.text())).toContain(RETIRED_FACTION);
    const [row] = await db().select().from(characters).where(eq(characters.userId, player.id));
    expect(row).toMatchObject({
      faction: "Homesteader",
      job: "Blacksmith",
      backstory: "Still here after the mine closed.",
    });

    // The profile and the member's record show the names saved.
    const profile = visibleText(await get("/profile?tab=character", player.cookie));
    expect(profile).toContain("Homesteader");
    expect(profile).toContain("Blacksmith");
    expect(visibleText(await get(`/tools/members/${player.id}`, manager.cookie))).toContain("Blacksmith");
  });

  it("keeps cast out", async () => {
    const cast = await signedInMember("cast");
    const response = await fetch(`${app().url}/tools/club/factions`, {
      headers: { Cookie: cast.cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const before = await currentFacts("factions");
    const post = await postForm(
      app().url,
      "/tools/club/factions",
      { "faction-count": "0", "job-count": "0", version: String(before.version) },
      cast.cookie,
    );
    expect(post.status).toBeGreaterThanOrEqual(300);
    expect(await currentFacts("factions")).toEqual(before);
  });
});
