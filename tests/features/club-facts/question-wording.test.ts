import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { PEL_QUESTIONS } from "~/game/pel";
import { createEvent } from "~/platform/db/factories";
import { applications, pels } from "~/platform/db/schema";
import { MESSAGES } from "~/web/forms/messages";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm, validApplication } from "../../helpers/forms";
import { visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

/**
 * The club's questions as members meet them: the post-event letter and the application ask the
 * current list at once, and every letter or application keeps the wording it was written against.
 */
type Signed = Awaited<ReturnType<typeof signedInMember>>;

const db = withTestDatabase();
const app = withAppServer();

let held: { id: string };
let manager: Signed;
beforeAll(async () => {
  held = await createEvent(db(), { title: "The Long Dark", date: "2025-10-17", status: "past" });
  manager = await signedInMember("manager");
});

const page = async (path: string, cookie: string) =>
  (await fetch(app().url + path, { headers: { Cookie: cookie } })).text();

/** Saves the list of `kind` as its page stands with `changes` made to the rows (a field left out is a box not ticked). */
async function changeQuestions(kind: string, changes: Record<string, string | null>) {
  const fields: Record<string, string> = formFieldsOf(await page(`/tools/club/${kind}`, manager.cookie));
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete fields[name];
    else fields[name] = value;
  }
  const saved = await postForm(app().url, `/tools/club/${kind}`, { ...fields, intent: "save" }, manager.cookie);
  expect(visibleText(await saved.text())).toContain("Saved:");
}

/** The letter form as the member opened it, with answers typed for `answered` (by key) and the event chosen. */
async function letterFrom(member: Signed, answered: Record<string, string>) {
  const html = await page("/pels", member.cookie);
  return { html, fields: { ...formFieldsOf(html), eventId: held.id, characterName: "Clara Dunmore", ...answered } };
}

const answering = (text: string) => Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, `${text} ${q.key}.`]));

async function lettersOf(member: Signed) {
  return db().select().from(pels).where(eq(pels.userId, member.id)).orderBy(pels.createdAt);
}

describe("the post-event letter's questions, as members are asked them", () => {
  const reworded = "How frightening was the weekend, and when were you most afraid?";

  it("asks a reworded question at once, keeps a letter written before reading as written, and a new one with the new words", async () => {
    const writer = await signedInMember("player");
    const before = await letterFrom(writer, answering("Before, about"));
    expect(visibleText(before.html)).toContain(PEL_QUESTIONS[0]!.label);
    const sent = await postForm(app().url, "/pels", before.fields, writer.cookie);
    expect(visibleText(await sent.text())).toContain("Letter Received!");
    const [old] = await lettersOf(writer);
    expect(old!.answers).toEqual(
      PEL_QUESTIONS.map((q) => ({ key: q.key, question: q.label, answer: `Before, about ${q.key}.` })),
    );

    await changeQuestions("pel-questions", { "label-0": reworded });

    // The form asks the new wording on the next visit.
    const form = visibleText(await page("/pels", writer.cookie));
    expect(form).toContain(reworded);
    expect(form).not.toContain(PEL_QUESTIONS[0]!.label);

    // The letter written before reads as it was written: in the review queue and in the member's record.
    const review = visibleText(await page(`/view-pels?event=${held.id}`, manager.cookie));
    expect(review).toContain(`${PEL_QUESTIONS[0]!.label} Before, about scariness.`);
    expect(review).not.toContain(reworded);
    const record = visibleText(await page(`/profile/record/pel/${old!.id}`, writer.cookie));
    expect(record).toContain(`${PEL_QUESTIONS[0]!.label} Before, about scariness.`);
    expect(record).not.toContain(reworded);

    // A letter written now keeps the new wording, and the old one is unchanged.
    const now = await letterFrom(writer, answering("After, about"));
    await postForm(app().url, "/pels", now.fields, writer.cookie);
    const [first, second] = await lettersOf(writer);
    expect(first!.answers[0]).toEqual({
      key: "scariness",
      question: PEL_QUESTIONS[0]!.label,
      answer: "Before, about scariness.",
    });
    expect(second!.answers[0]).toEqual({ key: "scariness", question: reworded, answer: "After, about scariness." });
    const reviewNow = visibleText(await page(`/view-pels?event=${held.id}`, manager.cookie));
    expect(reviewNow).toContain(`${reworded} After, about scariness.`);
    expect(reviewNow).toContain(`${PEL_QUESTIONS[0]!.label} Before, about scariness.`);
  });

  it("lets an added optional question be left blank, and still needs every required one", async () => {
    const count = Number(formFieldsOf(await page("/tools/club/pel-questions", manager.cookie)).count);
    const blank = count - 1;
    await changeQuestions("pel-questions", {
      [`label-${blank}`]: "Is there a song for the next fire?",
      [`required-${blank}`]: null,
    });
    const writer = await signedInMember("player");
    const opened = await letterFrom(writer, answering("About"));
    const html = opened.html;
    expect(visibleText(html)).toContain("Is there a song for the next fire?");
    // Not every field is required now: the form says what the mark means, and the new one has none.
    expect(visibleText(html)).toContain("Fields marked with an asterisk (*) are required.");
    expect(html).toMatch(/<textarea[^>]*name="is-there-a-song-for-the-next-fire"(?![^>]*required)/);
    expect((html.match(/data-required-mark=""/g) ?? []).length).toBe(2 + PEL_QUESTIONS.length);

    const refused = await postForm(app().url, "/pels", { ...opened.fields, goals: "  " }, writer.cookie);
    expect(refused.status).toBe(400);
    const refusal = visibleText(await refused.text());
    expect(refusal).toContain(MESSAGES.requiredAll);
    expect(refusal).toContain(MESSAGES.required);
    expect(await lettersOf(writer)).toEqual([]);

    const sent = await postForm(app().url, "/pels", opened.fields, writer.cookie);
    expect(sent.status).toBe(200);
    const [letter] = await lettersOf(writer);
    expect(letter!.answers.at(-1)).toEqual({
      key: "is-there-a-song-for-the-next-fire",
      question: "Is there a song for the next fire?",
      answer: "",
    });
    const record = visibleText(await page(`/profile/record/pel/${letter!.id}`, writer.cookie));
    expect(record).toContain("Is there a song for the next fire? Left blank");
  });

  it("no longer asks a retired question, and keeps no answer to it", async () => {
    const drugs = PEL_QUESTIONS.find((q) => q.key === "drugs")!;
    const fields = formFieldsOf(await page("/tools/club/pel-questions", manager.cookie));
    const row = Object.entries(fields).find(([name, value]) => name.startsWith("key-") && value === "drugs")![0];
    await changeQuestions("pel-questions", { [`retired-${row.slice("key-".length)}`]: "on" });
    const writer = await signedInMember("player");
    const opened = await letterFrom(writer, answering("About"));
    expect(visibleText(opened.html)).not.toContain(drugs.label);
    expect(opened.html).not.toContain('name="drugs"');
    // An answer sent for it anyway (an old draft, a form made by hand) is not kept.
    await postForm(app().url, "/pels", { ...opened.fields, drugs: "A tonic from the peddler." }, writer.cookie);
    const [letter] = await lettersOf(writer);
    expect(letter!.answers.map((a) => a.key)).not.toContain("drugs");
    expect(JSON.stringify(letter!.answers)).not.toContain("A tonic from the peddler.");
    // Letters written while it was asked keep it.
    const review = visibleText(await page(`/view-pels?event=${held.id}`, manager.cookie));
    expect(review).toContain(`${drugs.label} Before, about drugs.`);
  });

  it("keeps the questions of the form the member opened when the club changes them while they write", async () => {
    const writer = await signedInMember("player");
    const opened = await letterFrom(writer, answering("Meanwhile, about"));
    const count = Number(formFieldsOf(await page("/tools/club/pel-questions", manager.cookie)).count);
    await changeQuestions("pel-questions", {
      "label-0": "Reworded while the letter was being written?",
      [`label-${count - 1}`]: "A required question added meanwhile?",
    });
    const sent = await postForm(app().url, "/pels", opened.fields, writer.cookie);
    expect(sent.status).toBe(200);
    const [letter] = await lettersOf(writer);
    expect(letter!.answers[0]).toEqual({ key: "scariness", question: reworded, answer: "Meanwhile, about scariness." });
    expect(letter!.answers.map((a) => a.question)).not.toContain("A required question added meanwhile?");
  });
});

describe("the application's questions, as applicants are asked them", () => {
  it("asks the club's questions, marks the required ones once one may be left blank, and keeps the wording asked", async () => {
    const referral = APPLICATION_TEXT_QUESTIONS.length - 1;
    const larpTypes = APPLICATION_TEXT_QUESTIONS.findIndex((q) => q.key === "larpTypes");
    await changeQuestions("application-questions", {
      [`label-${referral}`]: "Who told you about Hopewell?",
      [`required-${referral}`]: null,
      [`retired-${larpTypes}`]: "on",
    });
    const applicant = await signedInMember("applicant");
    const html = await page("/application", applicant.cookie);
    const text = visibleText(html);
    expect(text).toContain("Who told you about Hopewell?");
    expect(text).not.toContain(APPLICATION_TEXT_QUESTIONS[larpTypes]!.label);
    expect(text).toContain("Questions marked with an asterisk (*) need an answer");
    // The Discord name, player or cast, and the thirteen required written questions.
    expect((html.match(/data-required-mark=""/g) ?? []).length).toBe(2 + APPLICATION_TEXT_QUESTIONS.length - 2);

    const sent = await postForm(
      app().url,
      "/application",
      { ...validApplication({ referralSource: "" }), questionsVersion: formFieldsOf(html).questionsVersion! },
      applicant.cookie,
    );
    expect(sent.status).toBe(200);
    const [application] = await db().select().from(applications).where(eq(applications.userId, applicant.id));
    expect(application!.answers).toHaveLength(APPLICATION_TEXT_QUESTIONS.length - 1);
    expect(application!.answers.map((a) => a.key)).not.toContain("larpTypes");
    expect(application!.answers.at(-1)).toEqual({
      key: "referralSource",
      question: "Who told you about Hopewell?",
      answer: "",
    });

    // Reworded again later: the application still reads as the applicant was asked.
    await changeQuestions("application-questions", { [`label-${referral}`]: "How did you find us?" });
    const own = visibleText(await page("/application", applicant.cookie));
    expect(own).toContain("Who told you about Hopewell? Left blank");
    expect(own).not.toContain("How did you find us?");
    const managers = visibleText(await page("/tools?tab=applications", manager.cookie));
    expect(managers).toContain("Who told you about Hopewell? Left blank");
    expect(managers).not.toContain("How did you find us?");
  });
});
