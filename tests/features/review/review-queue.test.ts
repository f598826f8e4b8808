import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { QUEUE_MESSAGES } from "~/features/review/review-queue.form";
import { createEvent, createProfile, letterValues, orderValues, pelValues } from "~/platform/db/factories";
import { auditLog, letters, merchantOrders, pels, reviewQueue, staffReplies } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { visibleText } from "../../helpers/html";

const db = withTestDatabase();
const app = withAppServer();

async function page(path: string, cookie: string) {
  const response = await fetch(app().url + path, { headers: { Cookie: cookie } });
  return { status: response.status, html: await response.text() };
}

async function queueRow(kind: string, entryId: string) {
  const [row] = await db()
    .select()
    .from(reviewQueue)
    .where(and(eq(reviewQueue.kind, kind as "pel"), eq(reviewQueue.entryId, entryId)));
  return row;
}

describe("review queues", () => {
  it("let staff take a PEL, reply to it, and the member reads the reply on their profile", async () => {
    const cast = await signedInMember("cast");
    const member = await signedInMember("player");
    const event = await createEvent(db(), { title: "Queue Night", date: "2024-03-09", status: "past" });
    const [pel] = await db()
      .insert(pels)
      .values(pelValues(member.id, event.id, { characterName: "Hattie Crane" }))
      .returning();
    const url = `/view-pels?event=${event.id}`;

    const before = visibleText((await page(url, cast.cookie)).html);
    expect(before).toContain("Hattie Crane");
    expect(before).toContain("New");
    expect(before).toContain("Nobody has taken it");

    const took = await postForm(app().url, url, { intent: "take", entryId: pel!.id }, cast.cookie);
    expect(took.status).toBe(200);
    expect(visibleText(await took.text())).toContain("You have taken this entry.");
    expect(await queueRow("pel", pel!.id)).toMatchObject({
      status: "in_progress",
      assigneeId: cast.id,
      userId: member.id,
    });
    const taken = visibleText((await page(url, cast.cookie)).html);
    expect(taken).toContain("In progress");
    expect(taken).toContain("Taken by you");

    // An empty reply is refused with the form's message, and nothing is saved.
    const empty = await postForm(
      app().url,
      url,
      { intent: "reply", entryId: pel!.id, submissionKey: randomUUID(), body: "   " },
      cast.cookie,
    );
    expect(empty.status).toBe(400);
    expect(visibleText(await empty.text())).toContain("Please write a reply");
    expect(await db().select().from(staffReplies)).toHaveLength(0);

    // The reply form, opened for the entry, posts back to the entry (a page without JavaScript
    // opens there) and carries a one-time key: sent twice, as a reload after posting it does, it
    // leaves one reply, and the second answer says it was sent.
    const opened = (await page(`${url}&answer=${pel!.id}`, cast.cookie)).html;
    const replyForm = opened.match(
      /<form[^>]*action="([^"]*)"[^>]*>(?:(?!<\/form>)[\s\S])*?name="intent" value="reply"(?:(?!<\/form>)[\s\S])*?<\/form>/,
    );
    expect(replyForm?.[1]).toBe(`/view-pels?event=${event.id}&amp;answer=${pel!.id}#queue-${pel!.id}`);
    const replyKey = replyForm?.[0].match(/name="submissionKey" value="([^"]+)"/)?.[1];
    expect(replyKey).toMatch(/^[0-9a-f-]{36}$/);
    const body = "Your letter reached the Sheriff. <b>He remembers you.</b>";
    // The member's profile before the reply has none of it.
    expect(visibleText((await page("/profile", member.cookie)).html)).not.toContain("He remembers you");
    const reply = { intent: "reply", entryId: pel!.id, submissionKey: replyKey!, body };
    const replied = await postForm(app().url, url, reply, cast.cookie);
    expect(replied.status).toBe(200);
    const repliedPage = await replied.text();
    expect(visibleText(repliedPage)).toContain("Reply sent. The member reads it on their profile.");
    // The page drawn after it carries a new key for the next reply.
    expect(repliedPage).not.toContain(replyKey);
    const resent = await postForm(app().url, url, reply, cast.cookie);
    expect(resent.status).toBe(200);
    expect(visibleText(await resent.text())).toContain("Reply sent. The member reads it on their profile.");
    // The same key on another entry is a form from a page drawn before (kept by Back): refused, not lost in silence.
    const [otherPel] = await db()
      .insert(pels)
      .values(pelValues(member.id, event.id, { characterName: "Hattie Crane" }))
      .returning();
    const stale = await postForm(
      app().url,
      url,
      { ...reply, entryId: otherPel!.id, body: "A second answer." },
      cast.cookie,
    );
    expect(stale.status).toBe(409);
    expect(visibleText(await stale.text())).toContain(QUEUE_MESSAGES.expired);
    expect(await db().select().from(staffReplies).where(eq(staffReplies.entryId, otherPel!.id))).toHaveLength(0);
    // So is the same key on the same entry with other words (Back, then a follow-up written in the old form): not taken for sent.
    const followUp = await postForm(app().url, url, { ...reply, body: "And bring the lantern." }, cast.cookie);
    expect(followUp.status).toBe(409);
    const followUpPage = await followUp.text();
    expect(visibleText(followUpPage)).toContain(QUEUE_MESSAGES.expired);
    // The words are kept, in a form with a new key (sent again at the end).
    expect(followUpPage).toContain("And bring the lantern.");
    const freshKey = followUpPage.match(/name="submissionKey" value="([^"]+)"/)?.[1];
    expect(freshKey).not.toBe(replyKey);
    const saved = await db().select().from(staffReplies).where(eq(staffReplies.entryId, pel!.id));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      kind: "pel",
      userId: member.id,
      authorId: cast.id,
      body,
      submissionKey: replyKey,
    });
    expect(await queueRow("pel", pel!.id)).toMatchObject({ status: "answered", assigneeId: cast.id });

    const staffView = (await page(url, cast.cookie)).html;
    expect(visibleText(staffView)).toContain("Answered");
    expect(staffView).toContain("He remembers you.&lt;/b&gt;");

    // The member reads it, escaped, with the entry it answers.
    const profile = await page("/profile", member.cookie);
    expect(profile.status).toBe(200);
    expect(visibleText(profile.html)).toContain("Answers from staff");
    expect(visibleText(profile.html)).toContain("Post-event letter · Queue Night");
    expect(visibleText(profile.html)).toMatch(/Sent \w{3} \d+, \d{4}, \d+:\d\d [AP]M · answered /);
    expect(profile.html).toContain("&lt;b&gt;He remembers you.&lt;/b&gt;");
    expect(profile.html).not.toContain("<b>He remembers you.</b>");

    // Another member sees none of it.
    const other = await signedInMember("player");
    const theirs = visibleText((await page("/profile", other.cookie)).html);
    expect(theirs).toContain("Answers from staff");
    expect(theirs).not.toContain("He remembers you");

    const actions = await db()
      .select({ action: auditLog.action, actorId: auditLog.actorId, subjectId: auditLog.subjectId })
      .from(auditLog)
      .where(eq(auditLog.actorId, cast.id));
    expect(actions.map((a) => a.action).sort()).toEqual(["queue.reply", "queue.take"]);
    expect(actions.every((a) => a.subjectId === member.id)).toBe(true);

    // The follow-up refused as written on an older page goes once sent from the page drawn anew.
    expect(
      (
        await postForm(
          app().url,
          url,
          { ...reply, submissionKey: freshKey!, body: "And bring the lantern." },
          cast.cookie,
        )
      ).status,
    ).toBe(200);
    expect(
      (await db().select().from(staffReplies).where(eq(staffReplies.entryId, pel!.id))).map((row) => row.body).sort(),
    ).toEqual(["And bring the lantern.", body].sort());
  });

  it("filter by status and assignee in the address, hand back, set status, and count what is new on the Tools page", async () => {
    const cast = await signedInMember("cast");
    const manager = await signedInMember("manager");
    const author = await createProfile(db(), { firstName: "Orla", lastName: "Finch", role: "player" });
    const event = await createEvent(db(), { title: "Filter Night", date: "2024-04-13", status: "past" });
    const [first, second, third] = await db()
      .insert(merchantOrders)
      .values([
        orderValues(author.id, event.id, { items: { salt: 1 } }),
        orderValues(author.id, event.id, { items: { salt: 2 } }),
        orderValues(author.id, event.id, { items: { salt: 3 } }),
      ])
      .returning();
    const url = `/view-merchant-orders?event=${event.id}`;
    const tools = async () => visibleText((await page("/tools", cast.cookie)).html);
    const newOrders = (await tools()).match(/View Merchant Orders \((\d+) new\)/);
    expect(Number(newOrders?.[1])).toBeGreaterThanOrEqual(3);
    const baseline = Number(newOrders![1]);

    await postForm(app().url, url, { intent: "take", entryId: first!.id }, cast.cookie);
    await postForm(app().url, url, { intent: "take", entryId: second!.id }, manager.cookie);
    const answered = await postForm(
      app().url,
      url,
      { intent: "set_status", entryId: third!.id, status: "answered" },
      cast.cookie,
    );
    expect(answered.status).toBe(200);
    expect(await queueRow("order", third!.id)).toMatchObject({ status: "answered", assigneeId: null });

    const lines = (html: string) => (visibleText(html).match(/\d+ × Salt/g) ?? []).sort();
    expect(lines((await page(`${url}&assignee=mine`, cast.cookie)).html)).toEqual(["1 × Salt"]);
    expect(lines((await page(`${url}&assignee=${manager.id}`, cast.cookie)).html)).toEqual(["2 × Salt"]);
    expect(lines((await page(`${url}&assignee=nobody`, cast.cookie)).html)).toEqual(["3 × Salt"]);
    expect(lines((await page(`${url}&status=in_progress`, cast.cookie)).html)).toEqual(["1 × Salt", "2 × Salt"]);
    expect(lines((await page(`${url}&status=answered`, cast.cookie)).html)).toEqual(["3 × Salt"]);
    expect(lines((await page(`${url}&status=new`, cast.cookie)).html)).toEqual([]);
    // The filter is kept on the links that open and close events.
    expect((await page(`${url}&status=answered`, cast.cookie)).html).toContain("status=answered");
    // A nonsense filter is ignored, not an error.
    const nonsense = await page(`${url}&status=%00&assignee=`, cast.cookie);
    expect(nonsense.status).toBe(200);
    expect(lines(nonsense.html)).toHaveLength(3);
    // "Taken by" offers who holds an entry of this kind, not every cast member and manager.
    const idle = await createProfile(db(), { firstName: "Ivy", lastName: "Idle", role: "cast" });
    const takenBy = async (address: string) =>
      (await page(address, cast.cookie)).html.match(/<select id="queue-filter-assignee"[\s\S]*?<\/select>/)?.[0] ?? "";
    const choices = await takenBy(url);
    expect(choices).toContain(`value="${cast.id}"`);
    expect(choices).toContain(`value="${manager.id}"`);
    expect(choices).not.toContain(idle.id);
    // A filter naming someone who holds nothing still shows that name as chosen.
    expect(await takenBy(`${url}&assignee=${idle.id}`)).toMatch(
      new RegExp(`value="${idle.id}"[^>]*selected[^>]*>Ivy Idle<`),
    );

    // Only the entry the address names carries the status and reply forms; the others link to theirs.
    const forms = (html: string) => ({
      replies: (html.match(/name="body"/g) ?? []).length,
      statuses: (html.match(/name="status" /g) ?? []).length,
    });
    const closed = await page(`${url}&status=any`, cast.cookie);
    expect(forms(closed.html)).toEqual({ replies: 0, statuses: 1 }); // the filter's own
    expect(visibleText(closed.html).match(/Reply or set status/g)).toHaveLength(3);
    expect(closed.html).toContain(`answer=${second!.id}#queue-${second!.id}`);
    const opened = await page(`${url}&status=any&answer=${second!.id}`, cast.cookie);
    expect(forms(opened.html)).toEqual({ replies: 1, statuses: 2 });
    expect(opened.html).toContain(`id="reply-${second!.id}"`);
    expect(visibleText(opened.html).match(/Reply or set status/g)).toHaveLength(2);
    expect(visibleText(opened.html)).toContain("Close the forms for Orla Finch's order");
    // A reply refused for an entry whose forms were closed opens them again with the message.
    const refusedReply = await postForm(
      app().url,
      url,
      { intent: "reply", entryId: first!.id, submissionKey: randomUUID(), body: "" },
      cast.cookie,
    );
    expect(refusedReply.status).toBe(400);
    const refusedHtml = await refusedReply.text();
    expect(refusedHtml).toContain(`id="reply-${first!.id}"`);
    expect(visibleText(refusedHtml)).toContain("Please write a reply");

    // Only who took an entry hands it back.
    const refused = await postForm(app().url, url, { intent: "hand_back", entryId: second!.id }, cast.cookie);
    expect(refused.status).toBe(409);
    expect(visibleText(await refused.text())).toContain("Someone else has taken this entry since you opened the page.");
    const handed = await postForm(app().url, url, { intent: "hand_back", entryId: first!.id }, cast.cookie);
    expect(handed.status).toBe(200);
    expect(await queueRow("order", first!.id)).toMatchObject({ status: "new", assigneeId: null });

    expect((await tools()).match(/View Merchant Orders \((\d+) new\)/)?.[1]).toBe(String(baseline - 1));

    // Filtered, each listed event says how many of its entries pass, the closed ones too.
    const other = await createEvent(db(), { title: "Other Night", date: "2024-04-20", status: "past" });
    await db()
      .insert(merchantOrders)
      .values([
        orderValues(author.id, other.id, { items: { salt: 4 } }),
        orderValues(author.id, other.id, { items: { salt: 5 } }),
      ]);
    const noteOf = (html: string, title: string) =>
      html.match(
        new RegExp(`>${title}<span class="sr-only">[^<]*</span></a></h2><span class="text-sm text-dust">([^<]*)<`),
      )?.[1];
    // Filtered or not, each listed event also says how many of its entries are new.
    const freshOf = (html: string, title: string) =>
      html.match(
        new RegExp(
          `>${title}<span class="sr-only">[^<]*</span></a></h2><span class="text-sm text-dust">[^<]*<span[^>]*data-testid="fresh-count"[^>]*>([^<]*)</span>`,
        ),
      )?.[1];
    const filtered = (await page(`${url}&status=in_progress`, cast.cookie)).html;
    expect(noteOf(filtered, "Filter Night")).toBe("Saturday, April 13, 2024 · 1 order matches");
    expect(noteOf(filtered, "Other Night")).toBe("Saturday, April 20, 2024 · no orders match");
    expect(freshOf(filtered, "Other Night")).toBe(" · 2 new");
    const newOnes = (await page(`/view-merchant-orders?status=new`, cast.cookie)).html;
    expect(noteOf(newOnes, "Other Night")).toBe("Saturday, April 20, 2024 · 2 orders match");
    expect(noteOf(newOnes, "Filter Night")).toBe("Saturday, April 13, 2024 · 1 order matches");
    expect(noteOf((await page(`/view-merchant-orders?assignee=${manager.id}`, cast.cookie)).html, "Other Night")).toBe(
      "Saturday, April 20, 2024 · no orders match",
    );
    expect(noteOf((await page(`${url}&status=answered`, cast.cookie)).html, "Filter Night")).toBe(
      "Saturday, April 13, 2024 · 1 order matches",
    );
    // Unfiltered, a closed event shows its date and how many of its entries are new.
    const unfiltered = (await page(url, cast.cookie)).html;
    expect(noteOf(unfiltered, "Other Night")).toBe("Saturday, April 20, 2024");
    expect(freshOf(unfiltered, "Other Night")).toBe(" · 2 new");

    // Bad input: an unknown entry, a made-up status, an unknown intent.
    expect((await postForm(app().url, url, { intent: "take", entryId: crypto.randomUUID() }, cast.cookie)).status).toBe(
      404,
    );
    expect(
      (await postForm(app().url, url, { intent: "set_status", entryId: first!.id, status: "done" }, cast.cookie))
        .status,
    ).toBe(400);
    expect((await postForm(app().url, url, { intent: "delete", entryId: first!.id }, cast.cookie)).status).toBe(400);
  });

  it("are for cast and managers only, and letters have status but no staff reply", async () => {
    const player = await signedInMember("player");
    const cast = await signedInMember("cast");
    const event = await createEvent(db(), { title: "Closed Night", date: "2024-05-11", status: "past" });
    const [pel] = await db().insert(pels).values(pelValues(player.id, event.id)).returning();
    const refused = await postForm(
      app().url,
      `/view-pels?event=${event.id}`,
      { intent: "take", entryId: pel!.id },
      player.cookie,
    );
    expect([403, 404]).toContain(refused.status);
    expect(await queueRow("pel", pel!.id)).toBeUndefined();

    const [letter] = await db()
      .insert(letters)
      .values(letterValues(player.id, { status: "to_staff", recipient: "Old Mose" }))
      .returning();
    const took = await postForm(
      app().url,
      "/view-letters?tab=npc",
      { intent: "take", entryId: letter!.id },
      cast.cookie,
    );
    expect(took.status).toBe(200);
    expect(await queueRow("letter", letter!.id)).toMatchObject({ status: "in_progress", assigneeId: cast.id });
    const reply = await postForm(
      app().url,
      "/view-letters",
      { intent: "reply", entryId: letter!.id, submissionKey: randomUUID(), body: "Hello" },
      cast.cookie,
    );
    expect(reply.status).toBe(400);
    expect(await db().select().from(staffReplies).where(eq(staffReplies.entryId, letter!.id))).toHaveLength(0);

    // Answering as the NPC answers the entry.
    const answered = await postForm(
      app().url,
      "/view-letters?tab=npc",
      { intent: "answer", letterId: letter!.id, submissionKey: crypto.randomUUID(), body: "Mose writes back." },
      cast.cookie,
    );
    expect(answered.status).toBe(200);
    expect(await queueRow("letter", letter!.id)).toMatchObject({ status: "answered", assigneeId: cast.id });
    expect(visibleText((await page(`/view-letters?status=answered&assignee=mine`, cast.cookie)).html)).toContain(
      "To Old Mose",
    );
    expect(visibleText((await page(`/view-letters?status=new`, cast.cookie)).html)).not.toContain("To Old Mose");
  });

  it("keep the letters' filter through a search, the search through the filter, and both through a change of tab", async () => {
    const cast = await signedInMember("cast");
    const writer = await signedInMember("player");
    const word = `lamp${randomUUID().slice(0, 8)}`;
    const [mine, untaken] = await db()
      .insert(letters)
      .values([
        letterValues(writer.id, { status: "to_staff", recipient: "Taken Tess", body: `By the ${word} light.` }),
        letterValues(writer.id, { status: "to_staff", recipient: "Untaken Ulla", body: `No ${word} tonight.` }),
      ])
      .returning();
    await postForm(app().url, "/view-letters", { intent: "take", entryId: mine!.id }, cast.cookie);
    expect(await queueRow("letter", untaken!.id)).toBeUndefined();

    /** The GET form on the page whose control (not a kept hidden value) is `field`, sent as a browser would with `field` set: its address. */
    const submitted = (html: string, field: string, value: string) => {
      const form = [...html.matchAll(/<form[^>]*method="get"[^>]*>[\s\S]*?<\/form>/g)]
        .map((m) => m[0])
        .find((f) => new RegExp(`<(select|input)(?![^>]*type="hidden")[^>]*name="${field}"`).test(f));
      expect(form, `a form with ${field}`).toBeDefined();
      const params = new URLSearchParams();
      for (const [, name, kept] of form!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        params.set(name!, kept!);
      for (const [, name, options] of form!.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
        params.set(
          name!,
          options!.match(/<option[^>]*value="([^"]*)"[^>]*selected/)?.[1] ?? options!.match(/value="([^"]*)"/)![1]!,
        );
      params.set(field, value);
      return `/view-letters?${params}`;
    };
    const chosen = (html: string, id: string) =>
      html
        .match(new RegExp(`<select id="${id}"[\\s\\S]*?</select>`))?.[0]
        .match(/<option[^>]*value="([^"]*)"[^>]*selected/)?.[1];

    // Filtered to what this person took, then searched: the search keeps the filter.
    const filtered = await page("/view-letters?status=in_progress&assignee=mine", cast.cookie);
    const searchAddress = submitted(filtered.html, "q", word);
    expect(new URLSearchParams(searchAddress.split("?")[1]).get("status")).toBe("in_progress");
    const searched = await page(searchAddress, cast.cookie);
    expect(visibleText(searched.html)).toContain(`1 letter matching “${word}”`);
    expect(visibleText(searched.html)).toContain("To Taken Tess");
    expect(visibleText(searched.html)).not.toContain("To Untaken Ulla");
    expect(chosen(searched.html, "queue-filter-status")).toBe("in_progress");
    expect(chosen(searched.html, "queue-filter-assignee")).toBe("mine");
    expect(searched.html).toMatch(new RegExp(`name="q"[^>]*value="${word}"`));

    // Then the filter changed: it keeps the search and the tab.
    const npc = await page(`/view-letters?tab=npc&q=${word}&assignee=mine`, cast.cookie);
    const nobody = await page(submitted(npc.html, "assignee", "nobody"), cast.cookie);
    expect(visibleText(nobody.html)).toContain(`1 letter matching “${word}”`);
    expect(visibleText(nobody.html)).toContain("To Untaken Ulla");
    expect(visibleText(nobody.html)).not.toContain("To Taken Tess");
    expect(nobody.html).toMatch(/aria-current="page"[^>]*>To NPCs/);

    // Another tab keeps the search and the filter too.
    const allLetters = nobody.html.match(/<a[^>]* href="([^"]*)"[^>]*>All letters</)![1]!.replaceAll("&amp;", "&");
    expect(Object.fromEntries(new URLSearchParams(allLetters.split("?")[1]))).toEqual({ q: word, assignee: "nobody" });
    const all = await page(allLetters, cast.cookie);
    expect(all.html).toMatch(/aria-current="page"[^>]*>All letters/);
    expect(chosen(all.html, "queue-filter-assignee")).toBe("nobody");
    expect(visibleText(all.html)).toContain("To Untaken Ulla");
    expect(visibleText(all.html)).not.toContain("To Taken Tess");
  });
});
