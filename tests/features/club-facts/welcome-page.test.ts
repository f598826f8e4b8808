import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { WELCOME } from "~/game/welcome";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

withTestDatabase();
const app = withAppServer();

describe("the managers' welcome page", () => {
  it("shows the shipped welcome until a manager saves one, inert to hostile text, and brings it back", async () => {
    const manager = await signedInMember("manager");
    const home = async () => (await fetch(`${app().url}/`)).text();
    const first = await home();
    // Today's story, a paragraph each, as the site shipped it.
    for (const paragraph of WELCOME) expect(first).toContain(`<p>${paragraph}</p>`);

    const form = await (await fetch(`${app().url}/tools/club/welcome`, { headers: { Cookie: manager.cookie } })).text();
    expect(form).toContain(WELCOME[0]!.slice(0, 40));
    const text = 'The *new* season.\n\n<img src=x onerror="alert(1)"> [x](javascript:alert(1))\n\n- bring boots';
    const preview = await postForm(
      app().url,
      "/tools/club/welcome",
      { intent: "preview", version: "0", text },
      manager.cookie,
    );
    expect(await preview.text()).toContain("<p>The <em>new</em> season.</p>");
    expect((await currentFacts("welcome")).version).toBe(0);

    const saved = await postForm(
      app().url,
      "/tools/club/welcome",
      { intent: "save", version: "0", text },
      manager.cookie,
    );
    expect(await saved.text()).toContain("Saved: the welcome is now version 1.");
    const after = await home();
    expect(after).toContain("<p>The <em>new</em> season.</p>");
    expect(after).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(after).not.toMatch(/<img src=x|href="javascript:/i);
    expect(after).toContain("<li>bring boots</li>");
    expect(after).not.toContain(WELCOME[0]!.slice(0, 40));

    const empty = await postForm(
      app().url,
      "/tools/club/welcome",
      { intent: "save", version: "1", text: "  " },
      manager.cookie,
    );
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Write the welcome, up to 20,000 characters.");

    const back = await postForm(
      app().url,
      "/tools/club/welcome",
      { intent: "restore", restore: "0", version: "1" },
      manager.cookie,
    );
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    expect(await home()).toContain(WELCOME[0]!.slice(0, 40));
  });
});
