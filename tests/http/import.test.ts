import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  accounts,
  applications,
  auditLog,
  characters,
  eventAttendance,
  events,
  letters,
  merchantOrders,
  pels,
  profiles,
  research,
} from "~/platform/db/schema";
import { PERSON_NAME_MAX } from "~/features/accounts/auth.form";
import { CHARACTER_NAME_MAX } from "~/features/members/character.limits";
import { EVENT_TITLE_MAX, TICKET_URL_MAX } from "~/features/events/events.form";
import { RESEARCH_SOURCES_MAX } from "~/features/submissions/research.form";
import { LETTER_BODY_MAX } from "~/features/letters/letters.messages";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { PEL_ANSWER_MAX, PEL_QUESTIONS } from "~/game/pel";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { clubToday } from "~/lib/dates";
import { config } from "~/platform/config.server";
import { rawRows } from "~/platform/db/client.server";
import { createProfile } from "~/platform/db/factories";
import { runImportCommand } from "~/ops/import/run.server";
import { stableUuid } from "~/ops/import/values.server";
import {
  IDS,
  OLD_PASSWORD,
  OTHER_OLD_PASSWORD,
  PNG,
  RESEARCH_FILE,
  sampleExport,
  writeExport,
  type OldExport,
} from "../fixtures/old-export";
import { withAppServer } from "../helpers/app-server";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { visibleText } from "../helpers/html";

const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-import-data-"));
const app = withAppServer({ DATA_DIR: dataDir });
const work = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-import-export-"));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

let exports = 0;
/** The sample export, changed by `change`, written to a folder of its own. */
function exportWith(change: (data: OldExport) => void = () => {}): string {
  const data = sampleExport();
  change(data);
  return writeExport(path.join(work, `export-${++exports}`), data);
}

const TABLES = {
  profiles,
  accounts,
  events,
  applications,
  characters,
  pels,
  merchantOrders,
  eventAttendance,
  research,
  letters,
  auditLog,
};

/** Everything the import could have written: every row of every table it touches, and every stored file. */
async function siteState() {
  const rows = Object.fromEntries(
    await Promise.all(
      Object.entries(TABLES).map(
        async ([name, table]) =>
          [
            name,
            await db()
              .select()
              .from(table)
              .orderBy(asc(sql`1`)),
          ] as const,
      ),
    ),
  );
  return { rows, files: storedFiles() };
}

function storedFiles(): Record<string, string> {
  const root = path.join(dataDir, "files");
  if (!fs.existsSync(root)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(root, { recursive: true })
      .map(String)
      .filter((file) => fs.statSync(path.join(root, file)).isFile())
      .sort()
      .map((file) => [file, fs.readFileSync(path.join(root, file)).toString("base64")]),
  );
}

function post(pathname: string, fields: Record<string, string>, cookie?: string) {
  return fetch(app().url + pathname, {
    method: "POST",
    headers: {
      Origin: app().url,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

async function signIn(email: string, password: string): Promise<string | null> {
  const response = await post("/auth", {
    intent: "signin",
    email,
    password,
    altcha: await solvedCaptcha(),
    redirectTo: "/profile",
  });
  if (response.status !== 302) return null;
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("a broken export is refused, naming the file and the line, and nothing is imported", () => {
  const refused = async (dir: string, message: string | RegExp) => {
    const before = await siteState();
    const outcome = await runImportCommand(dir);
    expect(outcome.code).toBe(1);
    expect(outcome.out).toEqual([]);
    expect(outcome.err).toHaveLength(1);
    if (typeof message === "string") expect(outcome.err[0]).toBe(message);
    else expect(outcome.err[0]).toMatch(message);
    expect(await siteState()).toEqual(before);
  };

  it("a missing file", async () => {
    const dir = exportWith();
    fs.rmSync(path.join(dir, "pels.csv"));
    await refused(dir, `pels.csv: the file is missing from ${dir}.`);
  });

  it("a folder that is not there", async () => {
    await refused(
      path.join(work, "nowhere"),
      `${path.join(work, "nowhere")} is not a folder: give the folder holding auth_users.csv and the other files.`,
    );
  });

  it("a wrong header", async () => {
    const dir = exportWith();
    const file = path.join(dir, "characters.csv");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("faction,", "faction_name,"));
    await refused(
      dir,
      'characters.csv line 1: the header row is wrong: missing "faction"; unknown "faction_name" (expected id, user_id, character_name, backstory, faction, job).',
    );
  });

  it("malformed CSV", async () => {
    const dir = exportWith();
    const file = path.join(dir, "letters.csv");
    // Line 2 opens a quoted cell with a stray quote inside an unquoted one.
    fs.writeFileSync(file, `user_id,recipient,body,created_at\n${IDS.bo},Sheriff "Cole,hello,2025-05-24T08:00:00Z\n`);
    await refused(
      dir,
      "letters.csv line 2: malformed CSV (a quote inside an unquoted cell: quote the whole cell and double the quotes in it).",
    );
  });

  it("a quoted cell never closed", async () => {
    const dir = exportWith();
    fs.appendFileSync(path.join(dir, "events.csv"), `${IDS.silverFever},"Extra,2027-01-01,future,\n\n`);
    await refused(dir, "events.csv line 4: malformed CSV (a quoted cell opened after line 3 is never closed).");
  });

  it("a row with too many cells", async () => {
    const dir = exportWith();
    fs.appendFileSync(path.join(dir, "events.csv"), `${IDS.silverFever},Extra,2027-01-01,future,,surplus\n`);
    await refused(dir, "events.csv line 4: malformed CSV (the row has 6 cells where the header has 5).");
  });

  it("a CSV file that is a symbolic link", async () => {
    const dir = exportWith();
    const elsewhere = path.join(work, "letters-elsewhere.csv");
    fs.renameSync(path.join(dir, "letters.csv"), elsewhere);
    fs.symlinkSync(elsewhere, path.join(dir, "letters.csv"));
    await refused(dir, "letters.csv: a symbolic link to a file outside the export folder. Nothing was imported.");
  });

  it("an empty file", async () => {
    const dir = exportWith();
    fs.writeFileSync(path.join(dir, "profiles.csv"), "");
    await refused(dir, "profiles.csv line 1: the file is empty; it needs at least its header row.");
  });

  it("every file's problem at once, so one run lists all there is to fix", async () => {
    const dir = exportWith();
    fs.rmSync(path.join(dir, "pels.csv"));
    const characters = path.join(dir, "characters.csv");
    fs.writeFileSync(characters, fs.readFileSync(characters, "utf8").replace("faction,", "faction_name,"));
    // The loose names the old docs gave ("member, event") for the columns the importer wants.
    fs.writeFileSync(
      path.join(dir, "letters.csv"),
      `member,recipient,body,created_at\n${IDS.bo},Sheriff Cole,hello,2025-05-24T08:00:00Z\n`,
    );
    await refused(
      dir,
      [
        "3 files of the export have problems; nothing was imported:",
        '  characters.csv line 1: the header row is wrong: missing "faction"; unknown "faction_name" (expected id, user_id, character_name, backstory, faction, job).',
        `  pels.csv: the file is missing from ${dir}.`,
        '  letters.csv line 1: the header row is wrong: missing "user_id"; unknown "member" (expected user_id, recipient, body, created_at).',
      ].join("\n"),
    );
  });

  it("a row the database refuses late in the run: the rows and files before it are taken back", async () => {
    const dir = exportWith();
    await db().execute(sql`alter table letters add constraint letters_test_short check (length(body) < 10)`);
    try {
      await refused(
        dir,
        'letters.csv line 2: the database refused the row (new row for relation "letters" violates check constraint "letters_test_short"). Nothing was imported.',
      );
    } finally {
      await db().execute(sql`alter table letters drop constraint letters_test_short`);
    }
    expect(storedFiles()).toEqual({});
  });
});

describe("checking an export first (import --check)", () => {
  it("reports what the import would do, skipped rows and all, and changes nothing", async () => {
    const dir = exportWith((data) =>
      data.letters.push({ user_id: IDS.ghost, recipient: "Nobody", body: "lost", created_at: "2025-05-24T08:00:00Z" }),
    );
    const before = await siteState();
    const outcome = await runImportCommand(dir, { check: true });
    expect(outcome.err).toEqual([]);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    expect(report).toContain(
      `Checked ${dir}: every file is readable. Nothing was imported; this is what the import would do.`,
    );
    expect(report).toMatch(/^profiles\s+[1-9]\d*\s+0\s+0\s+0\s+\d+$/m);
    expect(report).toContain("Research files: 1 to copy into the site's storage, 0 already there.");
    expect(report).toMatch(/letters\.csv line \d+: missing user/);
    expect(await siteState()).toEqual(before);
    expect(storedFiles()).toEqual({});
  });

  it("writes no file into storage, and leaves one already at a paper's place as it was", async () => {
    const paperId = "7d4f3a52-2f0e-4c51-9a57-3c1f0b6e1a01";
    const dir = exportWith((data) => (data.research[0]!.id = paperId));
    // A file at the place the import would copy the paper to, from an earlier run cut short.
    const key = `research/${IDS.bo}/imported-${stableUuid("hopewell-import-file", paperId).replaceAll("-", "")}.png`;
    fs.mkdirSync(path.dirname(path.join(dataDir, "files", key)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "files", key), "an earlier run's first bytes");
    try {
      const before = await siteState();
      const outcome = await runImportCommand(dir, { check: true });
      expect(outcome.code).toBe(0);
      expect(outcome.out.join("\n")).toContain("Research files: 1 to copy into the site's storage, 0 already there.");
      expect(await siteState()).toEqual(before);
    } finally {
      fs.rmSync(path.join(dataDir, "files", key), { force: true });
    }
  });
});

describe("importing the old site's export", () => {
  let dir = "";

  it("imports every row it can, with its ids and relationships, and reports the rest", async () => {
    dir = exportWith();
    const outcome = await runImportCommand(dir);
    expect(outcome.err).toEqual([]);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    const counts = (table: string) =>
      report
        .split("\n")
        .find((line) => line.startsWith(`${table} `))!
        .trim()
        .split(/\s+/)
        .slice(1)
        .map(Number);
    // imported, updated, unchanged, kept, skipped
    expect(counts("profiles")).toEqual([3, 0, 0, 0, 2]);
    expect(counts("passwords")).toEqual([3, 0, 0, 0, 0]);
    expect(counts("events")).toEqual([2, 0, 0, 0, 0]);
    expect(counts("applications")).toEqual([2, 0, 0, 0, 1]);
    expect(counts("characters")).toEqual([1, 0, 0, 0, 2]);
    expect(counts("pels")).toEqual([1, 0, 0, 0, 1]);
    expect(counts("merchant_orders")).toEqual([2, 0, 0, 0, 1]);
    expect(counts("event_attendance")).toEqual([1, 0, 0, 0, 0]);
    expect(counts("research")).toEqual([1, 0, 0, 0, 1]);
    expect(counts("letters")).toEqual([1, 0, 0, 0, 0]);
    expect(report).toContain("Research files: 1 copied into the site's storage, 0 already there.");
    // Bo's 3 and Dee's 1 (her character was skipped, her count is hers); Abigail's 0 adds nothing.
    expect(report).toContain(
      "Events attended on the old site (events_attended): taken for 2 members as the start of their Events Survived, 0 already here.",
    );
    // Every skipped row, with the file, the line and why.
    expect(report).toContain('auth_users.csv line 4: bad email "not-an-email"');
    expect(report).toContain(`profiles.csv line 5: missing user (no user ${IDS.ghost} in auth_users.csv)`);
    expect(report).toContain(`applications.csv line 4: missing user (${IDS.ghost})`);
    expect(report).toContain('characters.csv line 3: unknown faction "Pirates"');
    expect(report).toContain('characters.csv line 4: job not open to the faction "Soldier" for "Homesteader"');
    expect(report).toContain(`pels.csv line 3: missing user (${IDS.ghost})`);
    expect(report).toContain('merchant_orders.csv line 4: unknown merchant item "unobtainium"');
    expect(report).toContain(`research.csv line 3: missing file (storage/research/${IDS.bo}/lost.pdf)`);
    expect(report).toContain("  profiles: 1 bad email, 1 missing user");
    // Imported as recorded, but worth a look.
    expect(report).toContain(
      "merchant_orders.csv line 3: total_price $5.00 differs from the price list's $3.00 (kept as recorded)",
    );
    expect(report).toContain('events.csv line 3: status "completed" read as past');
    // The export has no signature to check: whom it makes a manager is named for the operator.
    expect(report).toContain(
      "auth_users.csv line 2: abigail@old.example is a manager: check that the old site made them one",
    );

    // Members keep their ids, their names and their old password hashes.
    const members = await db().select().from(profiles).orderBy(profiles.email);
    expect(members.map((m) => [m.id, m.email, m.firstName, m.lastName, m.role])).toEqual([
      [IDS.ada, "abigail@old.example", "Abigail", "Marsh", "manager"],
      [IDS.bo, "bo.tanner@old.example", "Bo", "Tanner", "player"],
      [IDS.dee, "dee@old.example", "Dee", "Wilder", "applicant"],
    ]);
    expect(members[0]).toMatchObject({
      name: "Abigail Marsh",
      emergencyContact: { name: "Ida Marsh", phone: "+1 860 555 0101" },
      createdAt: new Date("2023-03-01T10:00:00Z"),
    });
    expect(members[1]!.createdAt).toEqual(new Date("2023-04-02T11:30:00.123Z"));
    expect(members[2]!.createdAt).toEqual(new Date("2023-06-04T07:15:00Z"));
    const exported = sampleExport();
    const passwords = await db().select().from(accounts).orderBy(accounts.userId);
    expect(passwords).toHaveLength(3);
    for (const account of passwords) {
      expect(account).toMatchObject({ providerId: "credential", accountId: account.userId });
      // The very hash the old service stored ($2a$ for Abigail, $2b$ for the others).
      expect(account.password).toBe(exported.auth_users.find((user) => user.id === account.userId)!.encrypted_password);
    }
    expect(passwords.find((a) => a.userId === IDS.ada)!.password).toMatch(/^\$2a\$10\$/);

    expect(
      await db()
        .select({
          id: events.id,
          title: events.title,
          date: events.date,
          status: events.status,
          ticketUrl: events.ticketUrl,
        })
        .from(events)
        .orderBy(events.date),
    ).toEqual([
      { id: IDS.lanternNight, title: "Lantern Night", date: "2025-05-16", status: "past", ticketUrl: null },
      {
        id: IDS.silverFever,
        title: "Silver Fever",
        date: "2027-08-13",
        status: "future",
        ticketUrl: "https://buy.stripe.com/silver",
      },
    ]);

    const apps = await db().select().from(applications).orderBy(applications.createdAt);
    expect(apps.map((a) => [a.id, a.userId, a.status, a.rolePreference, a.discordTag])).toEqual([
      [IDS.adaApplication, IDS.ada, "accepted", "cast", "abigail#1877"],
      [IDS.boApplication, IDS.bo, "accepted", "player", "bo_t"],
    ]);
    expect(apps[1]).toMatchObject({ createdAt: new Date("2023-04-03T10:00:00Z") });
    // The old site asked the built-in questions: each answer is kept with their wording, in their order.
    expect(apps[1]!.answers.map((a) => a.key)).toEqual(APPLICATION_TEXT_QUESTIONS.map((q) => q.key));
    expect(apps[1]!.answers[0]).toEqual({
      key: "larpExperience",
      question: "What larp experience do you have?",
      answer: "Bo's answer 1",
    });
    expect(apps[1]!.answers[14]).toEqual({
      key: "referralSource",
      question: "How did you hear about Hopewell?",
      answer: "Bo's answer 15",
    });

    // The faction and job matched to the game's own names.
    expect(
      await db()
        .select({
          id: characters.id,
          userId: characters.userId,
          name: characters.characterName,
          faction: characters.faction,
          job: characters.job,
          backstory: characters.backstory,
        })
        .from(characters),
    ).toEqual([
      {
        id: IDS.boCharacter,
        userId: IDS.bo,
        name: "Silas Crane",
        faction: "Homesteader",
        job: "Hunter / Trapper",
        backstory: "Came west after the war, looking for silver.",
      },
    ]);

    const [pel] = await db().select().from(pels);
    expect(pel).toMatchObject({
      userId: IDS.bo,
      eventId: IDS.lanternNight,
      characterName: "Silas Crane",
      createdAt: new Date("2025-05-20T18:00:00Z"),
    });
    expect(pel!.answers.map((a) => [a.key, a.question])).toEqual(PEL_QUESTIONS.map((q) => [q.key, q.label]));
    const answered = Object.fromEntries(pel!.answers.map((a) => [a.key, a.answer]));
    expect(answered).toMatchObject({
      favoriteMoments: "The lanterns going out, one by one.",
      drugs: "",
      followUp: "Who rang the bell?",
    });
    expect(await db().select().from(pels)).toHaveLength(1);

    // Item keys matched loosely to the price list; each total kept as recorded.
    const orders = await db().select().from(merchantOrders).orderBy(merchantOrders.createdAt);
    expect(orders.map((o) => [o.userId, o.eventId, o.items, o.totalPrice])).toEqual([
      [IDS.bo, IDS.silverFever, { meat: 2, bandages: 1, iron_ore: 4, spring_spacers: 1 }, "58.50"],
      [IDS.bo, IDS.silverFever, { meat: 1 }, "5.00"],
    ]);

    expect(
      await db()
        .select({
          userId: eventAttendance.userId,
          eventId: eventAttendance.eventId,
          cabin: eventAttendance.cabin,
          paymentStatus: eventAttendance.paymentStatus,
          characterName: eventAttendance.characterName,
        })
        .from(eventAttendance),
    ).toEqual([
      {
        userId: IDS.bo,
        eventId: IDS.lanternNight,
        cabin: "Dragon's Hoard",
        paymentStatus: "paid",
        characterName: "Silas Crane",
      },
    ]);

    // The file moved into the site's storage, and its row points there.
    const [paper] = await db().select().from(research);
    expect(paper).toMatchObject({
      userId: IDS.bo,
      eventId: IDS.lanternNight,
      sources: "The assayer's ledger",
      fileName: RESEARCH_FILE,
      fileType: "image/png",
      fileSize: PNG.length,
    });
    expect(paper!.fileKey).toMatch(new RegExp(`^research/${IDS.bo}/imported-[0-9a-f]{32}\\.png$`));
    expect(storedFiles()).toEqual({ [paper!.fileKey]: PNG.toString("base64") });

    const [letter] = await db().select().from(letters);
    expect(letter).toMatchObject({
      userId: IDS.bo,
      recipient: "Sheriff Cole",
      body: 'Dear Sheriff,\nthe "claim" on the ridge, by the creek, is mine.\n— Silas',
    });

    // The old site's counts, with the club's day they were taken; no attendance record is made up for them.
    const today = clubToday(new Date(), config().clubTimeZone);
    expect(
      await db()
        .select({ id: profiles.id, attended: profiles.oldSiteEventsAttended, asOf: profiles.oldSiteEventsAsOf })
        .from(profiles)
        .orderBy(profiles.email),
    ).toEqual([
      { id: IDS.ada, attended: null, asOf: null },
      { id: IDS.bo, attended: 3, asOf: today },
      { id: IDS.dee, attended: 1, asOf: today },
    ]);

    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "import.run"));
    expect(entry).toMatchObject({
      actorId: null,
      details: { operator: "npm run import", imported: 17, updated: 0, skipped: 8 },
    });
  });

  it("changes nothing when run again", async () => {
    const before = await siteState();
    const outcome = await runImportCommand(dir);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    expect(report).toContain("Nothing changed: everything in the export was already here.");
    expect(report).toMatch(/^profiles\s+0\s+0\s+3\s+0\s+2$/m);
    expect(report).toMatch(/^research\s+0\s+0\s+1\s+0\s+1$/m);
    expect(report).toContain(
      "Events attended on the old site (events_attended): taken for 0 members as the start of their Events Survived, 2 already here.",
    );
    expect(await siteState()).toEqual(before);
  });

  it("lets a member sign in with their old password, then keeps it as Argon2id", async () => {
    expect(await signIn("bo.tanner@old.example", "Wrong#1877")).toBeNull();
    const cookie = await signIn("Bo.Tanner@old.example", OTHER_OLD_PASSWORD);
    expect(cookie).not.toBeNull();
    const [account] = await db().select().from(accounts).where(eq(accounts.userId, IDS.bo));
    expect(account!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The same password still opens the account, now checked against the new hash.
    expect(await signIn("bo.tanner@old.example", OTHER_OLD_PASSWORD)).not.toBeNull();
    expect(await signIn("bo.tanner@old.example", OLD_PASSWORD)).toBeNull();
    // Abigail's $2a$ hash works the same way.
    expect(await signIn("abigail@old.example", OLD_PASSWORD)).not.toBeNull();
    const [ada] = await db().select().from(accounts).where(eq(accounts.userId, IDS.ada));
    expect(ada!.password).toMatch(/^\$argon2id\$/);

    // The member finds their character, application and papers on their pages.
    const character = await (
      await fetch(`${app().url}/profile?tab=character`, { headers: { Cookie: cookie! } })
    ).text();
    expect(character).toContain("Silas Crane");
    expect(character).toContain("Hunter / Trapper");
    // The old site's 3 events, Lantern Night among them (its attendance row came with the export): 3, not 1 nor 4.
    expect(visibleText(character)).toContain(
      "Events Survived 3 (including the 3 events counted on the club's old site)",
    );
    const application = await (
      await fetch(`${app().url}/profile?tab=application`, { headers: { Cookie: cookie! } })
    ).text();
    expect(application).toContain("Bo&#x27;s answer 1");
    const [paper] = await db().select().from(research);
    const file = await fetch(`${app().url}/research/${paper!.id}/file`, { headers: { Cookie: cookie! } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
  });

  it("never overwrites what changed on this site since, nor a password set here", async () => {
    await db()
      .update(characters)
      .set({ backstory: "Rewritten on the new site.", updatedAt: sql`now()` })
      .where(eq(characters.userId, IDS.bo));
    const outcome = await runImportCommand(dir);
    expect(outcome.code).toBe(0);
    expect(outcome.out.join("\n")).toMatch(/^characters\s+0\s+0\s+0\s+1\s+2$/m);
    // Bo's and Abigail's passwords are Argon2id now (they signed in), Dee's still the imported hash.
    expect(outcome.out.join("\n")).toMatch(/^passwords\s+0\s+0\s+1\s+2\s+0$/m);
    const [character] = await db().select().from(characters).where(eq(characters.userId, IDS.bo));
    expect(character!.backstory).toBe("Rewritten on the new site.");
    const [account] = await db().select().from(accounts).where(eq(accounts.userId, IDS.bo));
    expect(account!.password).toMatch(/^\$argon2id\$/);
  });

  it("takes a newer version of a row from a later export", async () => {
    const later = exportWith((data) => {
      const character = data.characters.find((row) => row.id === IDS.boCharacter)!;
      Object.assign(character, { backstory: "Found the vein at last.", updated_at: "2099-01-01T00:00:00Z" });
    });
    const outcome = await runImportCommand(later);
    expect(outcome.code).toBe(0);
    expect(outcome.out.join("\n")).toMatch(/^characters\s+0\s+1\s+0\s+0\s+2$/m);
    const [character] = await db().select().from(characters).where(eq(characters.userId, IDS.bo));
    expect(character!.backstory).toBe("Found the vein at last.");
  });

  it("skips a member whose email belongs to another account here, and their rows with them", async () => {
    const other = await createProfile(db(), { email: "taken@old.example" });
    const newcomer = "d25a6bda-36e9-4724-a720-da47f8091a2b";
    const taken = exportWith((data) => {
      data.auth_users.push({
        id: newcomer,
        email: "Taken@old.example",
        encrypted_password: null,
        created_at: "2024-01-01T00:00:00Z",
        raw_user_meta_data: null,
      });
      data.auth_users.push({
        id: "e36b7ceb-47fa-4835-b831-eb58091a2b3c",
        email: "abigail@OLD.example",
        encrypted_password: null,
        created_at: "2024-01-01T00:00:00Z",
        raw_user_meta_data: null,
      });
      data.characters.push({
        id: "f47c8dfc-58ab-4946-8942-fc69a2b3c4d5",
        user_id: newcomer,
        character_name: "Nobody",
        backstory: "-",
        faction: "Homesteader",
        job: "Miner",
      });
    });
    const outcome = await runImportCommand(taken);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    expect(report).toContain(
      'auth_users.csv line 6: email already used by another account on this site "taken@old.example"',
    );
    expect(report).toContain('auth_users.csv line 7: email used by another user in the file "abigail@old.example"');
    expect(report).toContain(`characters.csv line 5: missing user (${newcomer})`);
    expect(await db().select().from(profiles).where(eq(profiles.id, newcomer))).toEqual([]);
    const [kept] = await db().select().from(profiles).where(eq(profiles.email, "taken@old.example"));
    expect(kept!.id).toBe(other.id);
  });
});

describe("the import reads nothing but the export's own files", () => {
  it("refuses a research file that is a link, to another member's stored file or inside the export, and a linked folder", async () => {
    // Another member's paper, as the site keeps it.
    const victim = "a0b1c2d3-e4f5-4607-8819-2a3b4c5d6e7f";
    const secret = Buffer.concat([PNG, Buffer.from("another member's paper")]);
    const secretFile = path.join(dataDir, "files", "research", victim, "private.png");
    fs.mkdirSync(path.dirname(secretFile), { recursive: true });
    fs.writeFileSync(secretFile, secret);
    const paper = (research: string, file: string) => ({
      user_id: IDS.bo,
      event_id: IDS.lanternNight,
      sources: "Borrowed",
      research,
      file_url: `https://abcd.supabase.co/storage/v1/object/public/research/${file}`,
      created_at: "2025-06-01T08:00:00Z",
    });
    const dir = exportWith((data) => {
      data.research.push(
        paper("Through a link", `${IDS.bo}/borrowed.png`),
        paper("Through a link inside", `${IDS.bo}/again.png`),
        paper("Through a linked folder", "linked/private.png"),
      );
    });
    const bucket = path.join(dir, "storage", "research");
    fs.symlinkSync(secretFile, path.join(bucket, IDS.bo, "borrowed.png"));
    fs.symlinkSync(path.join(bucket, IDS.bo, RESEARCH_FILE), path.join(bucket, IDS.bo, "again.png"));
    fs.symlinkSync(path.dirname(secretFile), path.join(bucket, "linked"));
    const filesBefore = storedFiles();

    const outcome = await runImportCommand(dir);
    expect(outcome.err).toEqual([]);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    expect(report).toContain(
      `research.csv line 4: file is a link to outside the export (storage/research/${IDS.bo}/borrowed.png)`,
    );
    expect(report).toContain(`research.csv line 5: file is a symbolic link (storage/research/${IDS.bo}/again.png)`);
    expect(report).toContain(
      "research.csv line 6: file is a link to outside the export (storage/research/linked/private.png)",
    );
    expect(report).toContain(
      "  research: 1 missing file, 2 file is a link to outside the export, 1 file is a symbolic link",
    );
    expect(await db().select({ research: research.research }).from(research)).toEqual([
      { research: "The ore glows when the lamps go out." },
    ]);
    expect(storedFiles()).toEqual(filesBefore);
  });
});

describe("the import holds every text to the limit the site's own form sets for it", () => {
  it("refuses the rows that exceed one, reporting each, and takes a text right at the limit", async () => {
    const eli = "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e";
    const longEvent = "c8d9e0f1-a2b3-4c4d-9e5f-6a7b8c9d0e1f";
    const dir = exportWith((data) => {
      data.auth_users.push({
        id: eli,
        email: "eli@old.example",
        encrypted_password: null,
        created_at: "2024-02-01T00:00:00Z",
        raw_user_meta_data: JSON.stringify({ first_name: "E".repeat(PERSON_NAME_MAX + 1), last_name: "Long" }),
      });
      data.events.push({
        id: longEvent,
        title: "T".repeat(EVENT_TITLE_MAX + 1),
        date: "2026-03-13",
        status: "past",
        stripe: null,
      });
      data.events[0]!.stripe = `https://buy.stripe.com/${"s".repeat(TICKET_URL_MAX)}`;
      data.events[0]!.updated_at = "2099-01-01T00:00:00Z";
      data.characters[1]!.events_attended = "many";
      data.pels.push({
        ...data.pels[0]!,
        favorite_moments: "m".repeat(PEL_ANSWER_MAX + 1),
        created_at: "2025-05-25T18:00:00Z",
      });
      data.event_attendance.push({
        user_id: IDS.ada,
        event_id: IDS.lanternNight,
        cabin: null,
        payment_status: "paid",
        character_name: "C".repeat(CHARACTER_NAME_MAX + 1),
      });
      data.research.push({
        ...data.research[0]!,
        sources: "s".repeat(RESEARCH_SOURCES_MAX + 1),
        created_at: "2025-05-26T08:00:00Z",
      });
      data.research.push({
        ...data.research[0]!,
        file_url: `https://abcd.supabase.co/storage/v1/object/public/research/${IDS.bo}/huge.png`,
        research: "A huge scan",
        created_at: "2025-05-27T08:00:00Z",
      });
      data.files[`storage/research/${IDS.bo}/huge.png`] = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES)]);
      // The letter that made /view-letters a 42 MB page, one far too long to write on the site, and one right at the limit.
      data.letters.push({
        user_id: IDS.bo,
        recipient: "Sheriff Cole",
        body: "x".repeat(20 * 1024 * 1024),
        created_at: "2025-06-01T08:00:00Z",
      });
      data.letters.push({
        user_id: IDS.bo,
        recipient: "R".repeat(CHARACTER_NAME_MAX + 1),
        body: "Who?",
        created_at: "2025-06-02T08:00:00Z",
      });
      data.letters.push({
        user_id: IDS.bo,
        recipient: "Sheriff Cole",
        body: "y".repeat(LETTER_BODY_MAX),
        created_at: "2025-06-03T08:00:00Z",
      });
    });

    const outcome = await runImportCommand(dir);
    expect(outcome.err).toEqual([]);
    expect(outcome.code).toBe(0);
    const report = outcome.out.join("\n");
    expect(report).toContain("auth_users.csv line 6: first_name too long (81 characters; the site takes at most 80)");
    expect(report).toContain("events.csv line 4: title too long (201 characters; the site takes at most 200)");
    expect(report).toContain(
      "events.csv line 2: stripe is too long (523 characters; the site takes at most 500): left out",
    );
    expect(report).toContain(
      "pels.csv line 4: favorite_moments too long (5,001 characters; the site takes at most 5,000)",
    );
    expect(report).toContain(
      "event_attendance.csv line 3: character_name too long (101 characters; the site takes at most 100)",
    );
    expect(report).toContain(
      "research.csv line 4: sources too long (10,001 characters; the site takes at most 10,000)",
    );
    expect(report).toContain(
      `research.csv line 5: file larger than the site takes (huge.png: ${(PNG.length + UPLOAD_MAX_BYTES).toLocaleString("en-US")} bytes; at most 5,242,880)`,
    );
    expect(report).toContain(
      "letters.csv line 5: body too long (20,971,520 characters; the site takes at most 10,000)",
    );
    expect(report).toContain("letters.csv line 6: recipient too long (101 characters; the site takes at most 100)");
    expect(report).toContain("  letters: 1 body too long, 1 recipient too long");
    expect(report).toContain('characters.csv line 3: events_attended "many" is not a count of events: left out');

    // Nothing over a limit is in the database; the letter right at it is.
    expect(await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.id, eli))).toEqual([]);
    expect(await db().select({ id: events.id }).from(events).where(eq(events.id, longEvent))).toEqual([]);
    const [silver] = await db()
      .select({ ticketUrl: events.ticketUrl })
      .from(events)
      .where(eq(events.id, IDS.silverFever));
    expect(silver!.ticketUrl).toBeNull();
    const longest = async (table: string, column: string) =>
      Number(
        (
          await rawRows<{ n: number }>(db(), sql.raw(`select coalesce(max(length(${column})), 0) as n from ${table}`))
        )[0]!.n,
      );
    expect(await longest("letters", "body")).toBe(LETTER_BODY_MAX);
    expect(await longest("pels", "answers->1->>'answer'")).toBeLessThanOrEqual(PEL_ANSWER_MAX);
    expect(await longest("event_attendance", "character_name")).toBeLessThanOrEqual(CHARACTER_NAME_MAX);
    expect(await longest("research", "sources")).toBeLessThanOrEqual(RESEARCH_SOURCES_MAX);
    expect(
      await db().select({ research: research.research }).from(research).where(eq(research.research, "A huge scan")),
    ).toEqual([]);
  });
});
