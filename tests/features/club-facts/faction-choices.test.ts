import { describe, expect, it } from "vitest";
import {
  factionOnlyHint,
  factionProblem,
  factionsOffered,
  jobProblem,
  jobsOffered,
  pairFits,
} from "~/features/club-facts/factions/faction-choices";
import { startingFactions, type ClubFactions } from "~/features/club-facts/factions/factions.facts";
import { listOfRows, rowsOfForm, rowsOfList } from "~/features/club-facts/factions/factions-rows";

const names = (offered: { name: string }[]) => offered.map((entry) => entry.name);

describe("what a character may be, from the club's list", () => {
  const list = startingFactions();

  it("gives Soldier only to the US Survey Corp and Natural Scientist only to the Union Research Initiative", () => {
    expect(names(factionsOffered(list, null))).toEqual([
      "US Survey Corp",
      "Northwest Mineral Corporation",
      "Union Research Initiative",
      "Homesteader",
    ]);
    expect(names(jobsOffered(list, null, "US Survey Corp"))).toContain("Soldier");
    expect(names(jobsOffered(list, null, "US Survey Corp"))).not.toContain("Natural Scientist");
    expect(names(jobsOffered(list, null, "Union Research Initiative"))).toContain("Natural Scientist");
    expect(names(jobsOffered(list, null, "Union Research Initiative"))).not.toContain("Soldier");
    for (const faction of ["Northwest Mineral Corporation", "Homesteader"]) {
      expect(jobsOffered(list, null, faction)).toHaveLength(10);
    }
    expect(jobsOffered(list, null)).toHaveLength(12);
    expect(pairFits(list, null, "Homesteader", "Soldier")).toBe(false);
    expect(pairFits(list, null, "Homesteader", "Hunter / Trapper")).toBe(true);
    expect(factionProblem(list, null, "Pinkertons")).toBe("unknown");
    expect(jobProblem(list, null, "Sheriff")).toBe("unknown");
    expect(factionOnlyHint(list)).toBe(
      "Soldier is open only to the US Survey Corp, Natural Scientist only to the Union Research Initiative.",
    );
  });

  it("keeps a character's own retired faction and job choosable, and no other retired one", () => {
    const changed: ClubFactions = {
      factions: list.factions.map((f) => ({ ...f, retired: f.name === "Homesteader" })),
      jobs: list.jobs.map((job) => ({ ...job, retired: job.name === "Miner" || job.name === "Barkeep" })),
    };
    const saved = { faction: "Homesteader", job: "Miner" };
    expect(factionsOffered(changed, saved).at(-1)).toEqual({ name: "Homesteader", retired: true });
    expect(factionsOffered(changed, null).map((f) => f.name)).not.toContain("Homesteader");
    expect(jobsOffered(changed, saved, "Homesteader").filter((job) => job.retired)).toEqual([
      { name: "Miner", retired: true },
    ]);
    expect(factionProblem(changed, saved, "Homesteader")).toBeNull();
    expect(jobProblem(changed, saved, "Miner")).toBeNull();
    expect(jobProblem(changed, saved, "Barkeep")).toBe("retired");
    expect(factionProblem(changed, { faction: "US Survey Corp", job: "Miner" }, "Homesteader")).toBe("retired");
    // The pair as saved stays, whatever the list now says of the job.
    const moved: ClubFactions = {
      ...changed,
      jobs: changed.jobs.map((job) => (job.name === "Miner" ? { ...job, faction: "US Survey Corp" } : job)),
    };
    expect(pairFits(moved, saved, "Homesteader", "Miner")).toBe(true);
    expect(pairFits(moved, null, "Homesteader", "Miner")).toBe(false);
    // A saved job renamed out of the list is the character's still.
    expect(jobsOffered(list, { faction: "Homesteader", job: "Prospector" }, "Homesteader").at(-1)).toEqual({
      name: "Prospector",
      retired: true,
    });
  });
});

describe("the factions form read back into a list", () => {
  /** The form's fields as the page draws them from `list`, every row unchanged, and the blank rows. */
  function fieldsOf(list: ClubFactions): Record<string, string> {
    const rows = rowsOfList(list);
    const fields: Record<string, string> = {
      "faction-count": String(rows.factions.length + 1),
      "job-count": String(rows.jobs.length + 1),
    };
    rows.factions.forEach((row, n) => {
      Object.assign(fields, {
        [`faction-was-${n}`]: row.was,
        [`faction-name-${n}`]: row.name,
        [`faction-position-${n}`]: row.position,
      });
      if (row.retired) fields[`faction-retired-${n}`] = "on";
    });
    rows.jobs.forEach((row, n) => {
      Object.assign(fields, {
        [`job-was-${n}`]: row.was,
        [`job-name-${n}`]: row.name,
        [`job-faction-${n}`]: row.faction,
        [`job-position-${n}`]: row.position,
      });
    });
    return fields;
  }

  it("gives back the list unchanged, and carries a faction's new name to its jobs", () => {
    const list = startingFactions();
    expect(listOfRows(rowsOfForm(fieldsOf(list)))).toEqual({ list });
    const renamed = listOfRows(rowsOfForm({ ...fieldsOf(list), "faction-name-0": "US Survey Corps" }));
    expect("list" in renamed && renamed.list.jobs.find((job) => job.name === "Soldier")).toEqual({
      name: "Soldier",
      faction: "US Survey Corps",
      retired: false,
    });
  });

  it("marks a job open to a faction the list does not hold, and a second faction of one name", () => {
    const list = startingFactions();
    const soldier = list.jobs.findIndex((job) => job.name === "Soldier");
    expect(listOfRows(rowsOfForm({ ...fieldsOf(list), [`job-faction-${soldier}`]: "Pinkertons" }))).toEqual({
      errors: { [`job-faction-${soldier}`]: "Choose one of the factions for this job, or every faction." },
    });
    expect(listOfRows(rowsOfForm({ ...fieldsOf(list), "faction-name-4": "homesteader" }))).toEqual({
      errors: { "faction-name-4": "Another faction has this name: give each its own." },
    });
  });
});
