import { and, eq } from "drizzle-orm";
import { decodeHTML } from "entities";
import { describe, expect, it } from "vitest";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { ARRIVAL, VENUE } from "~/game/setting";
import { auditLog, clubFactVersions } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { formFieldsOf, postForm } from "../../helpers/forms";
import { readable, visibleText } from "../../helpers/html";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

/** The page's words as the site shipped them, as a visitor reads them (from the page before the club could change them). */
const SHIPPED = [
  `Take I-84 to Exit 73 and follow ${VENUE.highway} east toward ${VENUE.town}. Stay on ${VENUE.highway} for about three miles, then turn onto Cat Hollow Road and follow the lantern signs to the ${VENUE.name} gate. Phone signal fades near the site, so load your map before you leave.`,
  `Venue opens ${ARRIVAL.venueOpens} Game starts ${ARRIVAL.gameStarts} Please arrive at least ${ARRIVAL.arriveEarlyHours} hour early to check in, unpack, settle into your cabin and get into costume before the game begins.`,
  "Venue Information On-site parking in the field by the gate; follow the staff's directions on arrival. Camping areas for players who prefer a tent to a cabin bunk. Basic amenities : cabins with bunks, restrooms and drinking water. Bring your own bedding. Emergency services nearby : the nearest hospital is a short drive away, and staff on site know the route.",
  "Important Notes Weather : New England weather changes fast. Pack rain gear, warm layers for the night and sturdy boots for wet trails. Updates : registered players receive news and any changes by email before each event.",
];

const locations = async (cookie?: string) =>
  (await fetch(`${app().url}/locations`, { headers: cookie ? { Cookie: cookie } : {} })).text();
const editor = async (cookie: string) =>
  (await fetch(`${app().url}/tools/club/locations`, { headers: { Cookie: cookie } })).text();
/** The form's fields as a browser sends them (a text area's text with its entities read). */
const fieldsOf = (html: string) =>
  Object.fromEntries(Object.entries(formFieldsOf(html)).map(([name, value]) => [name, decodeHTML(value)]));

describe("the managers' location page", () => {
  it("starts from the page as it was, previews, saves for every visitor at once, and brings the words back", async () => {
    const manager = await signedInMember("manager");
    const player = await signedInMember("player");
    for (const page of [await locations(), await locations(player.cookie)]) {
      const text = visibleText(page);
      for (const words of SHIPPED) expect(text).toContain(words);
      expect(page).toContain("<strong>On-site parking</strong>");
      expect(page).toContain(`<address class="not-italic">${VENUE.street}`);
      expect(page).toMatch(/<iframe src="https:\/\/www\.openstreetmap\.org\/export\/embed/);
    }

    // The form holds the four sections' words, each with the formatted-text hint.
    const fields = fieldsOf(await editor(manager.cookie));
    const starting = (await currentFacts("locations")).content;
    expect(fields).toMatchObject({ version: "0", ...starting });
    expect(readable(await editor(manager.cookie))).toContain("Leave a blank line between paragraphs.");

    const typed = {
      ...fields,
      directions: "Follow the *lanterns* from the [station](https://example.org/station).",
      notes: "- Bring boots\n- Bring a lantern",
    };
    const preview = await postForm(app().url, "/tools/club/locations", { ...typed, intent: "preview" }, manager.cookie);
    const previewHtml = await preview.text();
    expect(previewHtml).toContain("Preview: not saved yet");
    expect(previewHtml).toContain("<p>Follow the <em>lanterns</em> from the");
    expect(previewHtml).toContain("<li>Bring a lantern</li>");
    expect((await currentFacts("locations")).version).toBe(0);

    // A section left empty is marked beside its field; nothing is saved.
    const empty = await postForm(
      app().url,
      "/tools/club/locations",
      { ...typed, arrival: "  ", intent: "save" },
      manager.cookie,
    );
    expect(empty.status).toBe(400);
    const emptyHtml = readable(await empty.text());
    expect(emptyHtml).toMatch(/id="arrival-[^"]*-error"[^>]*>Write this section, up to 20,000 characters\./);
    expect(emptyHtml).toContain("Follow the *lanterns*");
    expect((await currentFacts("locations")).version).toBe(0);

    const saved = await postForm(app().url, "/tools/club/locations", { ...typed, intent: "save" }, manager.cookie);
    expect(await saved.text()).toContain("Saved: the location page is now version 1.");
    // The signed-out page kept in memory was dropped by the save.
    for (const page of [await locations(), await locations(player.cookie)]) {
      expect(page).toContain(
        '<p>Follow the <em>lanterns</em> from the <a href="https://example.org/station" rel="nofollow noopener noreferrer">station</a>.</p>',
      );
      expect(page).toContain("<li>Bring a lantern</li>");
      expect(page).not.toContain("follow the lantern signs");
      // The venue's address and the arrival times are the site's, not the words.
      expect(visibleText(page)).toContain(`Venue opens ${ARRIVAL.venueOpens} Game starts ${ARRIVAL.gameStarts}`);
      expect(page).toContain(`<address class="not-italic">${VENUE.street}`);
    }
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "club_facts.save"), eq(auditLog.actorId, manager.id)));
    expect(audit?.details).toMatchObject({ kind: "locations", version: 1, before: starting });

    // The same form again, opened at version 0.
    const stale = await postForm(app().url, "/tools/club/locations", { ...typed, intent: "save" }, manager.cookie);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else saved a change while you were editing.");

    const page = await editor(manager.cookie);
    expect(page).toContain("The starting location page");
    const back = await postForm(
      app().url,
      "/tools/club/locations",
      { intent: "restore", restore: "0", version: "1" },
      manager.cookie,
    );
    expect(await back.text()).toContain("Version 0 is back, saved as version 2.");
    const rows = await db().select().from(clubFactVersions).where(eq(clubFactVersions.kind, "locations"));
    expect(rows.map((row) => row.version).sort()).toEqual([1, 2]);
    const text = visibleText(await locations());
    for (const words of SHIPPED) expect(text).toContain(words);
  });

  it("is for managers only", async () => {
    const cast = await signedInMember("cast");
    const before = (await currentFacts("locations")).version;
    const refused = await fetch(`${app().url}/tools/club/locations`, {
      headers: { Cookie: cast.cookie },
      redirect: "manual",
    });
    expect(refused.status).toBe(302);
    const post = await postForm(
      app().url,
      "/tools/club/locations",
      { intent: "save", version: "0", directions: "x", arrival: "x", venue: "x", notes: "x" },
      cast.cookie,
    );
    expect(post.status).toBe(403);
    expect((await currentFacts("locations")).version).toBe(before);
  });
});
