import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { QUESTION_MESSAGES } from "~/features/club-facts/questions/questions.facts";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { PEL_QUESTIONS } from "~/game/pel";
import { auditLog } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

/** The editor's fields as a browser would send them: every row as it stands. */
async function pageFields(path: string, cookie: string): Promise<Record<string, string>> {
  return formFieldsOf(await (await fetch(app().url + path, { headers: { Cookie: cookie } })).text());
}

const post = (path: string, fields: Record<string, string>, cookie: string) =>
  postForm(app().url, path, fields, cookie);

describe("the managers' page of the post-event letter's questions", () => {
  const path = "/tools/club/pel-questions";

  it("rewords and adds a question with a preview first, refuses a stale form, and brings back the starting questions", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(path, manager.cookie);
    const blank = Number(fields.count) - 1;
    expect(blank).toBe(PEL_QUESTIONS.length);
    expect(fields["label-0"]).toBe(PEL_QUESTIONS[0]!.label);
    expect(fields["key-0"]).toBe("scariness");
    expect(fields["hint-1"]).toBe(PEL_QUESTIONS[1]!.hint);
    expect(fields["required-0"]).toBe("on");
    expect(fields["retired-0"]).toBeUndefined();
    expect(fields[`label-${blank}`]).toBe("");
    // A new question is required unless the box is cleared.
    expect(fields[`required-${blank}`]).toBe("on");

    const typed: Record<string, string> = {
      ...fields,
      "label-0": "How frightening was the weekend, and when were you most afraid?",
      // A manager cannot rename a question's key: the row keeps the question it was.
      [`label-${blank}`]: "What did your character eat?",
      [`hint-${blank}`]: "Only if it was memorable.",
      [`position-${blank}`]: "2",
      "retired-9": "on",
    };
    delete typed[`required-${blank}`];
    const preview = await post(path, { ...typed, intent: "preview" }, manager.cookie);
    expect(preview.status).toBe(200);
    const previewHtml = await preview.text();
    const previewText = visibleText(previewHtml);
    // The form comes back as typed, the new question in it, and one blank row to add another.
    const sentBack = formFieldsOf(previewHtml);
    expect(sentBack.count).toBe(String(PEL_QUESTIONS.length + 2));
    expect(sentBack[`label-${blank}`]).toBe("What did your character eat?");
    expect(sentBack[`label-${blank + 1}`]).toBe("");
    expect(previewText).toContain("Preview: not saved yet");
    const shown = previewText.slice(
      previewText.indexOf("Preview: not saved yet"),
      previewText.indexOf("Reword a question"),
    );
    expect(shown).toContain("How frightening was the weekend, and when were you most afraid?");
    expect(shown).toContain("Only if it was memorable.");
    // The retired question is not asked; the new one is second.
    expect(shown).not.toContain(PEL_QUESTIONS[9]!.label);
    expect(shown.indexOf("What did your character eat?")).toBeLessThan(shown.indexOf(PEL_QUESTIONS[1]!.label));
    expect((await currentFacts("pel-questions")).version).toBe(0);

    const saved = await post(path, { ...typed, intent: "save" }, manager.cookie);
    expect(visibleText(await saved.text())).toContain("Saved: the post-event letter's questions are now version 1.");
    const now = await currentFacts("pel-questions");
    expect(now.version).toBe(1);
    expect(now.content).toHaveLength(PEL_QUESTIONS.length + 1);
    expect(now.content[0]).toEqual({
      key: "scariness",
      label: "How frightening was the weekend, and when were you most afraid?",
      hint: "",
      required: true,
      retired: false,
    });
    expect(now.content[1]).toEqual({
      key: "what-did-your-character-eat",
      label: "What did your character eat?",
      hint: "Only if it was memorable.",
      required: false,
      retired: false,
    });
    expect(now.content.find((q) => q.key === "drugs")).toMatchObject({ retired: true });
    // The page shows the saved list; the retired question stays in it, marked.
    const after = await pageFields(path, manager.cookie);
    expect(after["key-1"]).toBe("what-did-your-character-eat");
    expect(after["required-1"]).toBeUndefined();
    expect(after["retired-10"]).toBe("on");
    const [row] = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "club_facts.save"), eq(auditLog.actorId, manager.id)))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    const details = row!.details as { kind: string; version: number; before: { label: string }[] };
    expect(details).toMatchObject({ kind: "pel-questions", version: 1 });
    expect(details.before[0]!.label).toBe(PEL_QUESTIONS[0]!.label);

    // Rewording a question again keeps its key, even when its words now make another.
    const again = await post(
      path,
      { ...after, "label-1": "What did your character cook?", intent: "save" },
      manager.cookie,
    );
    expect(visibleText(await again.text())).toContain("now version 2");
    expect((await currentFacts("pel-questions")).content[1]).toMatchObject({
      key: "what-did-your-character-eat",
      label: "What did your character cook?",
    });

    // The same form again: it was opened at version 0.
    const stale = await post(path, { ...typed, intent: "save" }, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");

    const back = await post(path, { intent: "restore", restore: "0", version: "2" }, manager.cookie);
    expect(visibleText(await back.text())).toContain("Version 0 is back, saved as version 3.");
    expect((await currentFacts("pel-questions")).content.map((q) => q.label)).toEqual(
      PEL_QUESTIONS.map((q) => q.label),
    );
  });

  it("marks the field that is wrong, keeps one question asked, and saves nothing", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(path, manager.cookie);
    const before = (await currentFacts("pel-questions")).version;
    const refused = async (changes: Record<string, string>) => {
      const response = await post(path, { ...fields, ...changes, intent: "save" }, manager.cookie);
      expect(response.status).toBe(400);
      return visibleText(await response.text());
    };

    const blankQuestion = await refused({ "label-1": "  " });
    expect(blankQuestion).toContain("Some questions need a change: see the marked fields.");
    expect(blankQuestion).toContain(QUESTION_MESSAGES.label);
    expect(await refused({ "label-2": "x".repeat(301) })).toContain(QUESTION_MESSAGES.label);
    expect(await refused({ "hint-0": "x".repeat(301) })).toContain(QUESTION_MESSAGES.hint);
    const everyRetired = Object.fromEntries(PEL_QUESTIONS.map((_, n) => [`retired-${n}`, "on"]));
    expect(await refused(everyRetired)).toContain(QUESTION_MESSAGES.noneAsked);
    // A form that names one question twice is turned back whole.
    expect(await refused({ "key-1": "scariness" })).toContain(QUESTION_MESSAGES.sameKey);
    expect((await currentFacts("pel-questions")).version).toBe(before);
  });

  it("keeps cast out", async () => {
    const cast = await signedInMember("cast");
    const page = await fetch(app().url + path, { headers: { Cookie: cast.cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    const posted = await post(path, { intent: "restore", restore: "0", version: "0" }, cast.cookie);
    expect(posted.status).toBeGreaterThanOrEqual(300);
  });
});

describe("the managers' page of the application's questions", () => {
  const path = "/tools/club/application-questions";

  it("edits the application's own list, with its own history", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(path, manager.cookie);
    expect(Number(fields.count) - 1).toBe(APPLICATION_TEXT_QUESTIONS.length);
    expect(fields["label-14"]).toBe("How did you hear about Hopewell?");
    const typed: Record<string, string> = { ...fields, "label-14": "Who told you about Hopewell?", intent: "save" };
    delete typed["required-14"];
    const saved = await post(path, typed, manager.cookie);
    const html = visibleText(await saved.text());
    expect(html).toContain("Saved: the application's questions are now version 1.");
    expect(html).toContain("Application Questions");
    expect(html).toContain("Version 1");
    expect((await currentFacts("application-questions")).content[14]).toMatchObject({
      key: "referralSource",
      label: "Who told you about Hopewell?",
      required: false,
    });
    // The letter's questions are another list.
    expect((await currentFacts("pel-questions")).content[0]!.key).toBe("scariness");
  });

  it("answers the page's own navigations and posts (.data) with the application's list, never the letter's", async () => {
    const manager = await signedInMember("manager");
    const pelVersion = (await currentFacts("pel-questions")).version;
    const read = await fetch(`${app().url}${path}.data`, { headers: { Cookie: manager.cookie } });
    expect(read.status).toBe(200);
    const data = await read.text();
    expect(data).toContain(APPLICATION_TEXT_QUESTIONS[0]!.label);
    expect(data).not.toContain(PEL_QUESTIONS[0]!.label);

    const fields = await pageFields(path, manager.cookie);
    const before = (await currentFacts("application-questions")).version;
    const saved = await post(
      `${path}.data`,
      { ...fields, "label-0": "What games have you played?", intent: "save" },
      manager.cookie,
    );
    expect(saved.status).toBe(200);
    const after = await currentFacts("application-questions");
    expect(after.version).toBe(before + 1);
    expect(after.content[0]!.label).toBe("What games have you played?");
    expect((await currentFacts("pel-questions")).version).toBe(pelVersion);
    // A trailing slash's data request (React Router's "/_.data") is the same page.
    const slashed = await fetch(`${app().url}${path}/_.data`, { headers: { Cookie: manager.cookie } });
    expect(await slashed.text()).toContain("What games have you played?");
  });
});
