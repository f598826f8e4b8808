import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  currentFacts,
  factsHistory,
  historyOf,
  restoreFacts,
  saveFacts,
} from "~/features/club-facts/club-facts.server";
import { FAQ } from "~/game/faq";
import { auditLog, clubFactVersions } from "~/platform/db/schema";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();

describe("the club's facts", () => {
  it("shows today's built-in FAQ until a manager saves one, with each answer's paragraphs", async () => {
    const { version, content } = await currentFacts("faq");
    expect(version).toBe(0);
    expect(content.map((entry) => entry.question)).toEqual(FAQ.map((entry) => entry.question));
    expect(content[0]!.answer.split("\n\n")).toEqual(FAQ[0]!.answer);
  });

  it("saves a new version with an audit row of before and after, refuses a stale edit, and goes back", async () => {
    const manager = await signedInMember("manager");
    const start = await currentFacts("faq");
    const added = [...start.content, { id: "parking", question: "Where do I park?", answer: "In the *lower* field." }];
    expect(await saveFacts("faq", added, manager, start.version)).toEqual({ ok: true, version: start.version + 1 });
    const now = await currentFacts("faq");
    expect(now.content.at(-1)).toEqual({
      id: "parking",
      question: "Where do I park?",
      answer: "In the *lower* field.",
    });

    // A second manager who opened the form before that save does not overwrite it unseen.
    const stale = await saveFacts("faq", start.content.slice(1), manager, start.version);
    expect(stale).toMatchObject({ ok: false, reason: "changed-meanwhile" });
    expect((await currentFacts("faq")).content).toHaveLength(start.content.length + 1);

    const restored = await restoreFacts("faq", start.version, manager, now.version);
    expect(restored).toEqual({ ok: true, version: now.version + 1 });
    expect((await currentFacts("faq")).content).toEqual(start.content);

    const audits = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, manager.id), eq(auditLog.action, "club_facts.save")))
      .orderBy(auditLog.createdAt);
    expect(audits).toHaveLength(2);
    expect(audits[0]!.details).toMatchObject({
      kind: "faq",
      version: now.version,
      before: start.content,
      after: added,
    });
    expect(audits[1]!.details).toMatchObject({ restoredFrom: start.version, before: added, after: start.content });

    const history = await factsHistory("faq");
    expect(history.map((row) => [row.version, row.restoredFrom])).toEqual([
      [now.version + 1, start.version],
      [now.version, null],
    ]);
    expect(history[0]).toMatchObject({ firstName: manager.firstName });

    // The history says what each save changed: the question added, then taken away again.
    const shown = await historyOf("faq");
    expect(shown.map((row) => row.changes)).toEqual([
      { added: [], removed: ["Where do I park?: In the *lower* field."], reordered: false },
      { added: ["Where do I park?: In the *lower* field."], removed: [], reordered: false },
    ]);
  });

  it("refuses a list that breaks the rules and saves nothing", async () => {
    const manager = await signedInMember("manager");
    const before = await db().select().from(clubFactVersions);
    const { version } = await currentFacts("faq");
    const outcome = await saveFacts("faq", [{ id: "x", question: "", answer: "a" }], manager, version);
    expect(outcome).toMatchObject({ ok: false, reason: "invalid" });
    expect(await saveFacts("faq", [{ id: "Not An Id!", question: "q", answer: "a" }], manager, version)).toMatchObject({
      ok: false,
    });
    expect(await db().select().from(clubFactVersions)).toEqual(before);
  });
});
