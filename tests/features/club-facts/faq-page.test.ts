import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { FAQ } from "~/game/faq";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

withTestDatabase();
const app = withAppServer();

/** The FAQ form's fields as a browser would send them: every row as it stands. */
async function pageFields(cookie: string): Promise<Record<string, string>> {
  return formFieldsOf(await (await fetch(`${app().url}/tools/club/faq`, { headers: { Cookie: cookie } })).text());
}

describe("the managers' FAQ page", () => {
  it("adds a question with a preview first, refuses a stale form, and brings back the starting FAQ", async () => {
    const manager = await signedInMember("manager");
    // The signed-out home page, rendered once and kept in memory, shows the built-in FAQ.
    const home = async () => (await fetch(`${app().url}/`)).text();
    expect(await home()).toContain(FAQ[0]!.question);
    expect(await home()).not.toContain("Where do I park?");
    const fields = await pageFields(manager.cookie);
    const last = Number(fields.count) - 1;
    expect(fields["question-0"]).toBe(FAQ[0]!.question);
    expect(fields[`question-${last}`]).toBe("");

    const typed = {
      ...fields,
      [`question-${last}`]: "Where do I park?",
      [`answer-${last}`]: 'In the *lower* field. <script>alert("x")</script> [map](javascript:alert(1))',
      [`position-${last}`]: "1",
    };
    const preview = await postForm(app().url, "/tools/club/faq", { ...typed, intent: "preview" }, manager.cookie);
    const previewHtml = await preview.text();
    expect(preview.status).toBe(200);
    expect(previewHtml).toContain("Preview: not saved yet");
    expect(previewHtml).toContain("In the <em>lower</em> field. &lt;script&gt;");
    expect(previewHtml).not.toContain('<script>alert("x")');
    expect(previewHtml).not.toMatch(/href="javascript:/i);
    expect((await currentFacts("faq")).version).toBe(0);
    // The form comes back with the rows typed and one blank box to add a question, not two.
    expect(formFieldsOf(previewHtml).count).toBe(String(Number(fields.count) + 1));
    const untouched = await postForm(app().url, "/tools/club/faq", { ...fields, intent: "preview" }, manager.cookie);
    expect(formFieldsOf(await untouched.text()).count).toBe(fields.count);

    const saved = await postForm(app().url, "/tools/club/faq", { ...typed, intent: "save" }, manager.cookie);
    expect(await saved.text()).toContain("Saved: the FAQ is now version 1.");
    const now = await currentFacts("faq");
    expect(now.content[0]).toMatchObject({ id: "where-do-i-park", question: "Where do I park?" });
    expect(now.content).toHaveLength(FAQ.length + 1);
    // The kept page was dropped by the save: the next visitor reads the new question first, its
    // answer formatted and the rest inert.
    const after = await home();
    expect(after.indexOf("Where do I park?")).toBeLessThan(after.indexOf(FAQ[0]!.question));
    expect(after).toContain("In the <em>lower</em> field. &lt;script&gt;");
    expect(after).not.toMatch(/href="javascript:/i);

    // The same form again: it was opened at version 0, and version 1 is saved since.
    const stale = await postForm(app().url, "/tools/club/faq", { ...typed, intent: "save" }, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");

    const back = await postForm(
      app().url,
      "/tools/club/faq",
      { intent: "restore", restore: "0", version: "1" },
      manager.cookie,
    );
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    expect((await currentFacts("faq")).content.map((entry) => entry.question)).toEqual(FAQ.map((e) => e.question));
    expect(await home()).not.toContain("Where do I park?");
  });

  it("marks the field that is wrong and saves nothing", async () => {
    const manager = await signedInMember("manager");
    const fields = await pageFields(manager.cookie);
    const refused = await postForm(
      app().url,
      "/tools/club/faq",
      { ...fields, "question-1": "", intent: "save" },
      manager.cookie,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Some questions need a change: see the marked fields.");
    expect(html).toContain("Write the question, up to 200 characters.");
  });

  it("keeps cast out", async () => {
    const cast = await signedInMember("cast");
    const response = await fetch(`${app().url}/tools/club/faq`, {
      headers: { Cookie: cast.cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const post = await postForm(
      app().url,
      "/tools/club/faq",
      { intent: "restore", restore: "0", version: "0" },
      cast.cookie,
    );
    expect(post.status).toBeGreaterThanOrEqual(300);
  });
});
