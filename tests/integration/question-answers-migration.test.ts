import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { PEL_QUESTIONS } from "~/game/pel";
import { openDatabase, rawRows } from "~/platform/db/client.server";
import { migrationFolders } from "../helpers/migrations";

/**
 * Upgrading a site whose members wrote letters and applications before the club could change its
 * questions: the migration keeps with every answer the question's wording as it was asked then
 * (0027), and the old answer columns go.
 */
const { tempDir, migrationsBefore } = migrationFolders();

/** The old column of an answer: favoriteMoments → favorite_moments. */
const column = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

describe("the migration to answers kept with their questions", () => {
  it("keeps each earlier letter's and application's answers with today's wording, in the order asked", async () => {
    const dataDir = tempDir("question-answers-upgrade");
    const before = await openDatabase({ dataDir, migrationsDir: migrationsBefore("0027_") });
    const pelAnswer = (key: string) => `On ${key}: the bell's rope was cut.`;
    const applicationAnswer = (key: string) => `About ${key}: I'd rather say it "plainly".`;
    try {
      await before.db.execute(
        sql`insert into profiles (id, name, email, first_name, last_name, role) values ('m1', 'Ada Wells', 'm1@example.org', 'Ada', 'Wells', 'player')`,
      );
      await before.db.execute(
        sql`insert into events (id, title, date) values ('00000000-0000-4000-8000-000000000001', 'Spring', '2026-04-10')`,
      );
      const pelColumns = PEL_QUESTIONS.map((q) => sql.identifier(column(q.key)));
      await before.db
        .execute(sql`insert into pels (submission_key, user_id, event_id, character_name, ${sql.join(pelColumns, sql`, `)})
        values ('00000000-0000-4000-8000-0000000000a1', 'm1', '00000000-0000-4000-8000-000000000001', 'Silas Crane',
        ${sql.join(
          PEL_QUESTIONS.map((q) => sql`${pelAnswer(q.key)}`),
          sql`, `,
        )})`);
      const applicationColumns = APPLICATION_TEXT_QUESTIONS.map((q) => sql.identifier(column(q.key)));
      await before.db
        .execute(sql`insert into applications (user_id, first_name, last_name, email, discord_tag, role_preference, ${sql.join(applicationColumns, sql`, `)})
        values ('m1', 'Ada', 'Wells', 'm1@example.org', 'ada_1877', 'cast', ${sql.join(
          APPLICATION_TEXT_QUESTIONS.map((q) => sql`${applicationAnswer(q.key)}`),
          sql`, `,
        )})`);
    } finally {
      await before.close();
    }
    const after = await openDatabase({ dataDir });
    try {
      const [pel] = await rawRows<Record<string, unknown>>(after.db, sql`select * from pels`);
      expect(pel!.answers).toEqual(
        PEL_QUESTIONS.map((q) => ({ key: q.key, question: q.label, answer: pelAnswer(q.key) })),
      );
      // Written out, so a change to the built-in wording is one this test sees.
      expect((pel!.answers as { question: string }[])[4]!.question).toBe(
        "Which other players' characters stood out for you, and why?",
      );
      expect(pel).toMatchObject({ character_name: "Silas Crane" });
      expect(Object.keys(pel!)).not.toContain("favorite_moments");

      const [application] = await rawRows<Record<string, unknown>>(after.db, sql`select * from applications`);
      expect(application!.answers).toEqual(
        APPLICATION_TEXT_QUESTIONS.map((q) => ({ key: q.key, question: q.label, answer: applicationAnswer(q.key) })),
      );
      expect((application!.answers as { question: string }[])[0]!.question).toBe("What larp experience do you have?");
      expect(application).toMatchObject({ discord_tag: "ada_1877", role_preference: "cast", status: "pending" });
      expect(Object.keys(application!)).not.toContain("larp_experience");
    } finally {
      await after.close();
    }
  }, 120_000);
});
