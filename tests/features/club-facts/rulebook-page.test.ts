import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { RULEBOOK_MESSAGES, RulebookSchema } from "~/features/club-facts/pages/rulebook.facts";
import { createBackup } from "~/ops/backup/dump.server";
import { rulebookKey, saveFile, storedKeys } from "~/platform/storage/storage.server";
import { sweepOrphanFiles } from "~/platform/storage/sweep.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { readable } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

/**
 * The managers' rulebook page over real HTTP: a link, an uploaded PDF (judged by its content, sent
 * as a plain form or by the page's script for its progress), the built-in rulebook, and the
 * history; the public viewer and its document follow the club's choice.
 */
const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-rulebook-"));
const app = withAppServer({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\n% the club's own rulebook\ntrailer<<>>\n%%EOF\n");
const PAGE = "/tools/club/rulebook";

type Manager = Awaited<ReturnType<typeof signedInMember>>;

function upload(manager: Manager, file: { bytes: Buffer; name: string } | null, version: number, json = false) {
  const form = new FormData();
  form.set("version", String(version));
  form.set("intent", "upload");
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)], { type: "application/pdf" }), file.name);
  // With its script the page sends the file to its upload address, which answers in JSON.
  return fetch(app().url + (json ? `${PAGE}/upload` : PAGE), {
    method: "POST",
    headers: { Cookie: manager.cookie, Origin: app().url, ...(json ? { Accept: "application/json" } : {}) },
    body: form,
    redirect: "manual",
  });
}

/** The signed-out viewer (kept in memory until a manager saves): the address it frames, and the one it opens. */
async function viewer() {
  const html = await (await fetch(`${app().url}/rulebook`)).text();
  return {
    html,
    frame: /<iframe src="([^"]*)" title="Hopewell rulebook"/.exec(html)?.[1]?.replaceAll("&amp;", "&"),
    open: /<a href="([^"]*)" target="_blank"[^>]*>Open the rulebook in its own tab/
      .exec(html)?.[1]
      ?.replaceAll("&amp;", "&"),
  };
}

const document = (address: string, framed = true) =>
  fetch(app().url + address, { headers: framed ? { "Sec-Fetch-Dest": "iframe" } : {}, redirect: "manual" });
const version = async () => (await currentFacts("rulebook")).version;
const rulebookFiles = () => fs.readdirSync(path.join(dataDir, "files", "rulebook"));

describe("the managers' rulebook page", () => {
  it("shows a link in the viewer, and refuses an address that is not https", async () => {
    const manager = await signedInMember("manager");
    expect(await viewer()).toMatchObject({ frame: "/rulebook/document", open: "/rulebook/document" });
    expect(readable(await (await fetch(app().url + PAGE, { headers: { Cookie: manager.cookie } })).text())).toContain(
      "The rulebook page shows the built-in rulebook, as the site shipped it.",
    );

    const plain = await postForm(
      app().url,
      PAGE,
      { intent: "link", version: "0", url: "http://example.org/rules" },
      manager.cookie,
    );
    expect(plain.status).toBe(400);
    const plainHtml = readable(await plain.text());
    expect(plainHtml).toMatch(/id="url-[^"]*-error"[^>]*>Give the rulebook's address, starting with https:\/\/\./);
    expect(plainHtml).toContain('value="http://example.org/rules"');
    expect(await version()).toBe(0);

    const url = "https://docs.example.org/rulebook?embedded=true&x=1";
    const saved = await postForm(app().url, PAGE, { intent: "link", version: "0", url }, manager.cookie);
    expect(await saved.text()).toContain("Saved: the rulebook is now version 1.");
    const shown = await viewer();
    // Framed by the site's document, which alone may frame the link's site; opened, the link itself.
    expect(shown).toMatchObject({ frame: "/rulebook/document?v=1", open: url });
    const framing = await document(shown.frame!);
    expect(framing.headers.get("Content-Security-Policy")).toContain("frame-src https://docs.example.org;");
    expect(framing.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    expect(await framing.text()).toContain(
      '<iframe src="https://docs.example.org/rulebook?embedded=true&amp;x=1" title="Hopewell rulebook, from docs.example.org">',
    );
    const opened = await document("/rulebook/document", false);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(url);
  });

  it("serves an uploaded PDF as the rulebook, refuses what is not one, and keeps every version's file", async () => {
    const manager = await signedInMember("manager");
    const before = await version();

    const notPdf = await upload(manager, { bytes: Buffer.from("<html>not a pdf</html>"), name: "rules.pdf" }, before);
    expect(notPdf.status).toBe(400);
    expect(readable(await notPdf.text())).toMatch(
      /id="rulebook-file-error"[^>]*>Choose a PDF of the rulebook, up to 5 MB\./,
    );
    const none = await upload(manager, null, before);
    expect(none.status).toBe(400);
    const tooLarge = await upload(
      manager,
      { bytes: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024, 0x20)]), name: "big.pdf" },
      before,
    );
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain(RULEBOOK_MESSAGES.file);
    expect(await version()).toBe(before);
    expect(fs.existsSync(path.join(dataDir, "files", "rulebook"))).toBe(false);

    const saved = await upload(manager, { bytes: PDF, name: "Hopewell Rules 1877.pdf" }, before);
    expect(await saved.text()).toContain(`Saved: the rulebook is now version ${before + 1}.`);
    const uploaded = (await currentFacts("rulebook")).content;
    expect(uploaded).toMatchObject({ source: "file", fileName: "Hopewell Rules 1877.pdf", size: PDF.length });
    const shown = await viewer();
    expect(shown).toMatchObject({
      frame: `/rulebook/document?v=${before + 1}`,
      open: `/rulebook/document?v=${before + 1}`,
    });
    expect(shown.html).toContain("Open the rulebook (PDF)");
    expect(shown.html).toContain('download="hopewell-rulebook.pdf"');
    const served = await document(shown.frame!);
    expect(served.headers.get("Content-Type")).toBe("application/pdf");
    expect(served.headers.get("Content-Disposition")).toBe('inline; filename="hopewell-rulebook.pdf"');
    expect(served.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'self'");
    expect(served.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PDF);

    // The page's script asks for the answer in JSON, to show the upload's progress.
    const refusedJson = await upload(manager, { bytes: Buffer.from("GIF89a"), name: "a.pdf" }, before + 1, true);
    expect(refusedJson.status).toBe(400);
    expect(await refusedJson.json()).toEqual({ errors: { file: RULEBOOK_MESSAGES.file } });
    const second = Buffer.concat([PDF, Buffer.from("% the second edition\n")]);
    const savedJson = await upload(manager, { bytes: second, name: "second.pdf" }, before + 1, true);
    expect(savedJson.status).toBe(200);
    expect(await savedJson.json()).toEqual({ ok: `Saved: the rulebook is now version ${before + 2}.` });
    expect(Buffer.from(await (await document("/rulebook/document")).arrayBuffer())).toEqual(second);

    // A refused save keeps no file: the form was opened at an older version.
    const stale = await upload(manager, { bytes: PDF, name: "stale.pdf" }, before);
    expect(stale.status).toBe(409);
    expect(rulebookFiles()).toHaveLength(2);

    // Files a version names stay, whichever is shown; one no version names goes.
    const orphan = rulebookKey();
    await saveFile(orphan, PDF);
    const { orphans } = await sweepOrphanFiles({ graceMs: -60_000 });
    expect(orphans).toEqual([orphan]);
    expect(rulebookFiles().map((name) => `rulebook/${name}`)).toContain(uploaded.source === "file" && uploaded.key);
    expect(rulebookFiles()).toHaveLength(2);

    // A backup carries the uploaded rulebooks.
    const backup = await createBackup(db(), "pglite", path.join(dataDir, "backups", "club.tar.gz"));
    expect(backup.manifest.files.filter((file) => file.key.startsWith("rulebook/"))).toHaveLength(2);
    expect((await storedKeys()).filter((key) => key.startsWith("rulebook/"))).toHaveLength(2);

    // Bringing back the first upload shows its file again.
    const back = await postForm(
      app().url,
      PAGE,
      { intent: "restore", restore: String(before + 1), version: String(before + 2) },
      manager.cookie,
    );
    expect(await back.text()).toContain(`Version ${before + 1} is back, saved as version ${before + 3}.`);
    expect(Buffer.from(await (await document((await viewer()).frame!)).arrayBuffer())).toEqual(PDF);
  });

  it("brings back the built-in rulebook", async () => {
    const manager = await signedInMember("manager");
    const now = await version();
    const page = readable(await (await fetch(app().url + PAGE, { headers: { Cookie: manager.cookie } })).text());
    expect(page).toContain("The rulebook page shows the PDF uploaded here, Hopewell Rules 1877.pdf (1 KB).");
    expect(page).toContain("Bring back the starting rulebook");
    const back = await postForm(
      app().url,
      PAGE,
      { intent: "restore", restore: "0", version: String(now) },
      manager.cookie,
    );
    expect(await back.text()).toContain(`Version 0 is back, saved as version ${now + 1}.`);
    expect((await currentFacts("rulebook")).content).toEqual({ source: "built-in" });
    const shown = await viewer();
    expect(shown).toMatchObject({ frame: `/rulebook/document?v=${now + 1}`, open: `/rulebook/document?v=${now + 1}` });
    const builtIn = await document(shown.frame!);
    expect(builtIn.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await builtIn.text()).toContain("Safety first");

    // The same by its own button, once the club had a link again.
    await postForm(
      app().url,
      PAGE,
      { intent: "link", version: String(now + 1), url: "https://example.org/r.pdf" },
      manager.cookie,
    );
    expect((await viewer()).html).toContain("Open the rulebook (PDF)");
    const builtInAgain = await postForm(
      app().url,
      PAGE,
      { intent: "built-in", version: String(now + 2) },
      manager.cookie,
    );
    expect(await builtInAgain.text()).toContain(`Saved: the rulebook is now version ${now + 3}.`);
    expect((await currentFacts("rulebook")).content).toEqual({ source: "built-in" });
  });

  it("takes only an https address whose host can be named in a frame policy", () => {
    const link = (url: string) => RulebookSchema.safeParse({ source: "link", url }).success;
    expect(link("https://docs.example.org/d/1?embedded=true")).toBe(true);
    expect(link("https://exämple.org/rules")).toBe(true);
    for (const url of [
      "http://example.org",
      "https://",
      "javascript:alert(1)",
      "https://a;script-src:*.org/",
      "https://a,b.org",
    ])
      expect(link(url), url).toBe(false);
  });

  it("is for managers only", async () => {
    const cast = await signedInMember("cast");
    const before = await version();
    expect((await fetch(app().url + PAGE, { headers: { Cookie: cast.cookie }, redirect: "manual" })).status).toBe(302);
    expect((await upload(cast, { bytes: PDF, name: "r.pdf" }, before)).status).toBe(403);
    expect((await upload(cast, { bytes: PDF, name: "r.pdf" }, before, true)).status).toBe(403);
    expect(await version()).toBe(before);
  });
});
