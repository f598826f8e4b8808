import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { signIn, signUp } from "~/features/accounts/accounts.server";
import { DELETION_MESSAGES } from "~/features/accounts/account-deletion.form";
import { rawRows } from "~/platform/db/client.server";
import {
  applicationValues,
  attendanceValues,
  characterValues,
  createEvent,
  letterValues,
  orderValues,
  pelAnswers,
  pelValues,
  researchValues,
} from "~/platform/db/factories";
import {
  accounts,
  applications,
  auditLog,
  characters,
  clubMessageRecipients,
  clubMessages,
  costumePhotos,
  costumeReminders,
  reviewQueue,
  staffReplies,
  costumeReviews,
  merchantOrders,
  pels,
  eventAttendance,
  letters,
  memberExports,
  outbox,
  passkeys,
  profiles,
  research,
  sessions,
  ticketPurchases,
  twoFactors,
} from "~/platform/db/schema";
import { exportsSettled } from "~/features/member-data/member-data.server";
import { costumeKeys, researchKey, saveFile } from "~/platform/storage/storage.server";
import { sweepOrphanFiles } from "~/platform/storage/sweep.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { readZip } from "../../helpers/zip";

/**
 * "Take it out" and "Leave" over real HTTP: the export's content (every table, no secrets),
 * who may download it, deleting an account (by the member and by a manager) and what is left.
 */
const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-member-data-"));
const app = withAppServer({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

type Member = Awaited<ReturnType<typeof signedInMember>>;

/** A member with a row in every table that holds member data, and names nobody else has. */
async function fullMember(eventId: string, options: { secondFactor?: boolean } = {}) {
  const member = await signedInMember("player", undefined, { secondFactor: options.secondFactor ?? true });
  const tag = crypto.randomBytes(4).toString("hex");
  const identity = {
    firstName: `Zebulon${tag}`,
    lastName: `Quackenbush${tag}`,
    phone: `+1 555 01${parseInt(tag.slice(0, 4), 16) % 100} ${tag.slice(4)}`,
    contactName: `Philomena Oddly${tag}`,
    characterName: `Silas Thornwood ${tag}`,
  };
  const email = member.email;
  await db()
    .update(profiles)
    .set({
      firstName: identity.firstName,
      lastName: identity.lastName,
      name: `${identity.firstName} ${identity.lastName}`,
      emergencyContact: { name: identity.contactName, phone: identity.phone },
      // A member of the club's old site, whose count of events the import kept.
      oldSiteEventsAttended: 4,
      oldSiteEventsAsOf: "2025-01-10",
    })
    .where(eq(profiles.id, member.id));
  const profile = { id: member.id, firstName: identity.firstName, lastName: identity.lastName, email };
  await db()
    .insert(applications)
    .values(applicationValues(profile, { discordTag: `zeb_${tag}` }));
  await db()
    .insert(characters)
    .values(
      characterValues(member.id, { characterName: identity.characterName, backstory: `Born in the hills ${tag}.` }),
    );
  const [pel] = await db()
    .insert(pels)
    .values(
      pelValues(member.id, eventId, {
        characterName: identity.characterName,
        answers: pelAnswers({ goals: `Find the silver ${tag}` }),
      }),
    )
    .returning({ id: pels.id });
  await db()
    .insert(staffReplies)
    .values({ kind: "pel", entryId: pel!.id, userId: member.id, authorId: null, body: `The Sheriff read it ${tag}` });
  await db().insert(reviewQueue).values({ kind: "pel", entryId: pel!.id, userId: member.id, status: "answered" });
  await db().insert(merchantOrders).values(orderValues(member.id, eventId));
  const key = researchKey(member.id, "png");
  await saveFile(key, PNG);
  await db()
    .insert(research)
    .values(
      researchValues(
        member.id,
        eventId,
        { key, name: "ore sample.png", type: "image/png", size: PNG.length },
        { research: `The ore glows ${tag}` },
      ),
    );
  const costume = costumeKeys(member.id, "png");
  await saveFile(costume.fileKey, PNG);
  await saveFile(costume.thumbKey, PNG);
  await db()
    .insert(costumePhotos)
    .values({
      userId: member.id,
      eventId,
      ...costume,
      fileType: "image/png",
      fileSize: PNG.length,
      width: 1,
      height: 1,
    });
  await db()
    .insert(costumeReviews)
    .values({
      userId: member.id,
      eventId,
      verdict: "changes_requested",
      note: `Boots, not sneakers ${tag}`,
      reviewedBy: member.id,
    });
  await db().insert(costumeReminders).values({ userId: member.id, eventId, daysBefore: 21 });
  await db()
    .insert(ticketPurchases)
    .values({
      userId: member.id,
      eventId,
      status: "paid",
      checkoutSessionId: `cs_test_${tag}`,
      amountCents: 8500,
      currency: "usd",
      paymentIntentId: `pi_${tag}`,
      holdExpiresAt: new Date(),
      paidAt: new Date(),
    });
  await db()
    .insert(letters)
    .values(letterValues(member.id, { recipient: "Widow Harlan", body: `Meet me at the mill, ${tag}. Signed, Silas` }));
  await db()
    .insert(eventAttendance)
    .values(attendanceValues(member.id, eventId, { cabin: "Arctic Fox", characterName: identity.characterName }));
  // A message from the managers: one copy emailed, and the member's choice of event messages switched off.
  const [message] = await db()
    .insert(clubMessages)
    .values({
      submissionKey: crypto.randomUUID(),
      subject: `Muster at the mill ${tag}`,
      body: `Dear {first name}, bring a lantern ${tag}.`,
      audience: "players",
      audienceLabel: "Players",
      choice: "news",
      sentBy: otherWriter.id,
    })
    .returning({ id: clubMessages.id });
  await db()
    .insert(clubMessageRecipients)
    .values({ messageId: message!.id, userId: member.id, status: "sent", sentAt: new Date() });
  await db().update(profiles).set({ eventEmails: false }).where(eq(profiles.id, member.id));
  await db()
    .insert(passkeys)
    .values({
      id: crypto.randomUUID(),
      userId: member.id,
      name: "Work laptop",
      publicKey: `PUBLICKEY${tag}`,
      credentialID: `CREDENTIAL${tag}`,
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
  return { ...member, ...identity, researchKey: key, costumeKeys: costume, tag };
}

let eventId = "";
let otherWriter: Member;
beforeAll(async () => {
  eventId = (await createEvent(db(), { title: "Silver Fever", date: "2025-08-15", status: "past" })).id;
  otherWriter = await signedInMember("player", undefined, { secondFactor: false });
});

async function requestAndFetchExport(member: Member): Promise<{ id: string; zip: Map<string, Buffer>; raw: Buffer }> {
  const asked = await postForm(app().url, "/profile/data", { intent: "export" }, member.cookie);
  expect(asked.status).toBe(200);
  expect(await asked.text()).toContain("Your data is being prepared");
  await exportsSettled();
  const page = await fetch(`${app().url}/profile/data`, { headers: { Cookie: member.cookie } });
  const html = await page.text();
  const link = /href="\/profile\/data\/([0-9a-f-]{36})\/file"/.exec(html);
  expect(link, "a download link on the page").not.toBeNull();
  const download = await fetch(`${app().url}/profile/data/${link![1]}/file`, { headers: { Cookie: member.cookie } });
  expect(download.status).toBe(200);
  expect(download.headers.get("Content-Type")).toBe("application/zip");
  const raw = Buffer.from(await download.arrayBuffer());
  return { id: link![1]!, zip: await readZip(raw), raw };
}

/** Every text and JSON column of every table holding any of `needles` (case-insensitive), as "table.column: needle". */
async function findInDatabase(needles: string[]): Promise<string[]> {
  const columns = await rawRows<{ table_name: string; column_name: string }>(
    db(),
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying') order by table_name, column_name`,
  );
  expect(columns.length).toBeGreaterThan(40);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const [row] = await rawRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text ilike ${`%${needle}%`}`,
      );
      if (row!.n > 0) found.push(`${table_name}.${column_name}: ${needle}`);
    }
  }
  return found;
}

/** Stored files (any folder) whose bytes hold any of `needles`, or whose path names `id`. */
function findInStorage(needles: string[], id: string): string[] {
  const found: string[] = [];
  const root = path.join(dataDir, "files");
  if (!fs.existsSync(root)) return found;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(id)) found.push(`${file}: the member's folder`);
    const text = fs.readFileSync(file).toString("latin1").toLowerCase();
    for (const needle of needles) if (text.includes(needle.toLowerCase())) found.push(`${file}: ${needle}`);
  }
  return found;
}

describe("taking out one's data", () => {
  it("gives the member one ZIP with every table's rows and their files, and no secret", async () => {
    const member = await fullMember(eventId);
    // Letters someone else wrote to the member's character: one delivered and read, one still waiting for release.
    const at = new Date();
    await db()
      .insert(letters)
      .values(
        letterValues(otherWriter.id, {
          recipient: member.characterName,
          recipientId: member.id,
          senderName: "Widow Harlan",
          status: "delivered",
          deliveredAt: at,
          readAt: at,
          body: `To Silas from afar ${member.tag}`,
        }),
      );
    await db()
      .insert(letters)
      .values(
        letterValues(otherWriter.id, {
          recipient: member.characterName,
          recipientId: member.id,
          status: "held",
          body: `Not yet released ${member.tag}`,
        }),
      );
    const { zip } = await requestAndFetchExport(member);
    expect([...zip.keys()].sort()).toEqual([
      "data.json",
      "files/001-ore sample.png",
      "files/002-costume 2025-08-15 1.png",
    ]);
    expect(zip.get("files/001-ore sample.png")).toEqual(PNG);
    expect(zip.get("files/002-costume 2025-08-15 1.png")).toEqual(PNG);
    const text = zip.get("data.json")!.toString("utf8");
    const json = JSON.parse(text);
    expect(json.profile).toMatchObject({
      id: member.id,
      email: member.email,
      firstName: member.firstName,
      lastName: member.lastName,
    });
    expect(json.emergencyContact).toEqual({ name: member.contactName, phone: member.phone });
    expect(json.application).toMatchObject({ email: member.email, discordTag: `zeb_${member.tag}` });
    expect(json.character).toMatchObject({
      characterName: member.characterName,
      backstory: `Born in the hills ${member.tag}.`,
    });
    expect(json.postEventLetters).toHaveLength(1);
    expect(json.postEventLetters[0]).toMatchObject({ event: { title: "Silver Fever", date: "2025-08-15" } });
    // Each answer with the question as the member was asked it.
    expect(json.postEventLetters[0].answers).toContainEqual({
      key: "goals",
      question: "What does your character want to do next?",
      answer: `Find the silver ${member.tag}`,
    });
    expect(json.application.answers).toHaveLength(15);
    expect(json.application.answers[0]).toMatchObject({ question: "What larp experience do you have?" });
    expect(json.merchantOrders).toHaveLength(1);
    expect(Object.keys(json.merchantOrders[0].items).length).toBeGreaterThan(0);
    expect(json.researchPapers).toEqual([
      expect.objectContaining({
        research: `The ore glows ${member.tag}`,
        fileName: "ore sample.png",
        fileInThisZip: "files/001-ore sample.png",
      }),
    ]);
    expect(json.costumePhotos).toEqual([
      expect.objectContaining({
        event: { title: "Silver Fever", date: "2025-08-15" },
        fileType: "image/png",
        fileInThisZip: "files/002-costume 2025-08-15 1.png",
      }),
    ]);
    expect(json.costumeVerdicts).toEqual([
      expect.objectContaining({ verdict: "changes_requested", note: `Boots, not sneakers ${member.tag}` }),
    ]);
    expect(json.costumeReminders).toEqual([
      expect.objectContaining({ daysBefore: 21, event: { title: "Silver Fever", date: "2025-08-15" } }),
    ]);
    expect(json.messageChoices).toEqual({ clubNews: true, eventMessages: false });
    expect(json.messagesFromTheClub).toEqual([
      expect.objectContaining({
        subject: `Muster at the mill ${member.tag}`,
        body: `Dear {first name}, bring a lantern ${member.tag}.`,
        sentTo: "Players",
        kind: "club news",
        email: "sent",
        emailedAt: expect.any(String),
      }),
    ]);
    expect(json.answersFromStaff).toEqual([
      expect.objectContaining({ about: "pel", body: `The Sheriff read it ${member.tag}` }),
    ]);
    expect(json.tickets).toEqual([
      expect.objectContaining({
        status: "paid",
        amountCents: 8500,
        checkoutSessionId: `cs_test_${member.tag}`,
        event: { title: "Silver Fever", date: "2025-08-15" },
      }),
    ]);
    expect(json.lettersSent).toEqual([
      expect.objectContaining({ recipient: "Widow Harlan", body: `Meet me at the mill, ${member.tag}. Signed, Silas` }),
    ]);
    // How the letter was signed and when it was read; never who wrote it, nor a letter not yet released.
    expect(json.lettersToYourCharacter).toEqual([
      {
        id: expect.any(String),
        from: "Widow Harlan",
        recipient: member.characterName,
        threadId: null,
        body: `To Silas from afar ${member.tag}`,
        deliveredAt: at.toISOString(),
        readAt: at.toISOString(),
      },
    ]);
    expect(text).not.toContain("Not yet released");
    expect(text).not.toContain(otherWriter.id);
    expect(json.attendance).toEqual([
      expect.objectContaining({
        cabin: "Arctic Fox",
        paymentStatus: "paid",
        characterName: member.characterName,
        event: { title: "Silver Fever", date: "2025-08-15" },
      }),
    ]);
    expect(json.eventsCountedByTheOldSite).toEqual({ events: 4, countedBefore: "2025-01-10" });
    expect(json.signInHistory.length).toBeGreaterThanOrEqual(1);
    expect(json.signInHistory[0]).toEqual(
      expect.objectContaining({
        ipAddress: expect.any(String),
        userAgent: expect.anything(),
        createdAt: expect.any(String),
      }),
    );
    expect(json.signInMethods).toEqual([expect.objectContaining({ method: "password" })]);
    expect(json.secondFactors).toEqual([{ kind: "authenticator app", confirmed: true }]);
    expect(json.passkeys).toEqual([expect.objectContaining({ name: "Work laptop", deviceType: "singleDevice" })]);

    // No secret of any kind: session tokens, the password hash, the authenticator secret and backup codes, passkey keys.
    const secrets = [
      ...(await db().select({ v: sessions.token }).from(sessions).where(eq(sessions.userId, member.id))).map(
        (r) => r.v,
      ),
      ...(await db().select({ v: accounts.password }).from(accounts).where(eq(accounts.userId, member.id))).map(
        (r) => r.v!,
      ),
      ...(
        await db()
          .select({ s: twoFactors.secret, b: twoFactors.backupCodes })
          .from(twoFactors)
          .where(eq(twoFactors.userId, member.id))
      ).flatMap((r) => [r.s, r.b]),
      `PUBLICKEY${member.tag}`,
      `CREDENTIAL${member.tag}`,
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const secret of secrets) expect(text.includes(secret), "a secret in the export").toBe(false);
    expect(text).not.toMatch(
      /"(token|password|secret|backupCodes|publicKey|credentialID|accessToken|refreshToken|idToken)":/,
    );

    // The member was told by email, with no link to the file itself.
    const mail = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.orderKey, `email:${member.email}`));
    const ready = mail.find(
      (m) => (m.payload as { subject: string }).subject === "Your Hopewell data is ready to download",
    );
    expect(ready).toBeDefined();
    expect((ready!.payload as { text: string }).text).toContain("/profile/data");
  });

  it("lets nobody else download it, and stops serving it once expired", async () => {
    const member = await fullMember(eventId, { secondFactor: false });
    const { id } = await requestAndFetchExport(member);
    // The daily sweep of unreferenced files keeps a prepared copy: its row names it.
    const [row] = await db().select().from(memberExports).where(eq(memberExports.id, id));
    await sweepOrphanFiles({ graceMs: 0, now: Date.now() + 60_000 });
    expect(fs.existsSync(path.join(dataDir, "files", row!.fileKey!))).toBe(true);
    const stranger = await signedInMember("manager");
    expect((await fetch(`${app().url}/profile/data/${id}/file`, { headers: { Cookie: stranger.cookie } })).status).toBe(
      404,
    );
    expect((await fetch(`${app().url}/profile/data/${id}/file`, { redirect: "manual" })).status).toBe(302);
    await db()
      .update(memberExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberExports.id, id));
    expect((await fetch(`${app().url}/profile/data/${id}/file`, { headers: { Cookie: member.cookie } })).status).toBe(
      404,
    );
  });
});

describe("leaving", () => {
  it("refuses a wrong password and an unticked box, and deletes nothing", async () => {
    const member = await fullMember(eventId, { secondFactor: false });
    const wrong = await postForm(
      app().url,
      "/profile/data",
      { intent: "delete", currentPassword: "Not-my-password1", confirm: "on" },
      member.cookie,
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(SITE_MESSAGES.wrongCurrentPassword.replaceAll("'", "&#x27;"));
    const unticked = await postForm(
      app().url,
      "/profile/data",
      { intent: "delete", currentPassword: member.password },
      member.cookie,
    );
    expect(unticked.status).toBe(400);
    expect(await unticked.text()).toContain("Please tick the box to confirm");
    const empty = await (await postForm(app().url, "/profile/data", { intent: "delete" }, member.cookie)).text();
    expect(empty).toContain("Please tick the box to confirm");
    expect(empty).toContain(DELETION_MESSAGES.passwordRequired);
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, member.id));
    expect(profile!.email).toBe(member.email);
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toHaveLength(1);
    expect(
      (await fetch(`${app().url}/profile/data`, { headers: { Cookie: member.cookie }, redirect: "manual" })).status,
    ).toBe(200);
  });

  it("removes every trace of the member's name, address and phone from the database and the storage, and keeps attendance anonymous", async () => {
    const member = await fullMember(eventId);
    await db()
      .insert(letters)
      .values(letterValues(otherWriter.id, { recipient: member.characterName, body: `Dear Silas ${member.tag}` }));
    // Delivered and read by the member, waiting for release to them, and theirs to an NPC waiting for an answer.
    const [read] = await db()
      .insert(letters)
      .values(
        letterValues(otherWriter.id, {
          recipient: member.characterName,
          recipientId: member.id,
          status: "delivered",
          deliveredAt: new Date(),
          readAt: new Date(),
        }),
      )
      .returning({ id: letters.id });
    const [held] = await db()
      .insert(letters)
      .values(letterValues(otherWriter.id, { recipient: member.characterName, recipientId: member.id, status: "held" }))
      .returning({ id: letters.id });
    const [toNpc] = await db()
      .insert(letters)
      .values(letterValues(member.id, { recipient: "Widow Harlan", status: "to_staff" }))
      .returning({ id: letters.id });
    await requestAndFetchExport(member);
    // Their name where managers' records mention it.
    await db()
      .insert(auditLog)
      .values({
        actorId: otherWriter.id,
        action: "role.change",
        subjectId: member.id,
        details: { note: `${member.firstName} ${member.lastName} <${member.email}>` },
      });
    const needles = [member.email, member.firstName, member.lastName, member.phone, member.contactName];
    expect((await findInDatabase(needles)).length).toBeGreaterThan(5);
    expect(findInStorage([], member.id).length).toBe(4); // the research file, the export, a costume photo and its thumbnail

    const deleted = await postForm(
      app().url,
      "/profile/data",
      { intent: "delete", currentPassword: member.password, confirm: "on" },
      member.cookie,
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/account-deleted");

    expect(await findInDatabase(needles)).toEqual([]);
    expect(findInStorage(needles, member.id)).toEqual([]);
    for (const table of [
      costumePhotos,
      costumeReviews,
      costumeReminders,
      staffReplies,
      reviewQueue,
      clubMessageRecipients,
    ])
      expect(await db().select().from(table).where(eq(table.userId, member.id))).toEqual([]);
    // The session is gone: the old cookie signs nobody in.
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    const after = await fetch(`${app().url}/profile`, { headers: { Cookie: member.cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/auth/);
    // Attendance stays, under the character's name only; letters others received stay; the letter to them stays.
    const [attendance] = await db()
      .select({
        cabin: eventAttendance.cabin,
        characterName: eventAttendance.characterName,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        email: profiles.email,
      })
      .from(eventAttendance)
      .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
      .where(eq(eventAttendance.userId, member.id));
    expect(attendance).toMatchObject({
      cabin: "Arctic Fox",
      characterName: member.characterName,
      firstName: member.characterName,
      lastName: "(former member)",
    });
    expect(attendance!.email).toMatch(/@deleted\.invalid$/);
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toHaveLength(2);
    expect(await db().select().from(letters).where(eq(letters.recipient, member.characterName))).toHaveLength(3);
    // When they read their letters goes; nothing more is delivered to them or answered for them.
    const statusOf = async (id: string) =>
      (
        await db().select({ status: letters.status, readAt: letters.readAt }).from(letters).where(eq(letters.id, id))
      )[0];
    expect(await statusOf(read!.id)).toEqual({ status: "delivered", readAt: null });
    expect(await statusOf(held!.id)).toEqual({ status: "filed", readAt: null });
    expect(await statusOf(toNpc!.id)).toEqual({ status: "filed", readAt: null });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.delete"), eq(auditLog.subjectId, member.id)));
    expect(entry).toMatchObject({ actorId: member.id, details: { by: "member" } });

    // It cannot sign in; the address registers again as a new, empty account.
    expect(
      (
        await signIn(
          { email: member.email, password: member.password },
          new Request("http://localhost/auth"),
          "192.0.2.200",
        )
      ).ok,
    ).toBe(false);
    const again = await signUp(
      { firstName: "Newcomer", lastName: "Again", email: member.email, password: "Fresh$Start2026" },
      "192.0.2.201",
    );
    expect(again.ok).toBe(true);
    const [fresh] = await db().select().from(profiles).where(eq(profiles.email, member.email));
    expect(fresh!.id).not.toBe(member.id);
    expect(fresh!.role).toBe("applicant");
  });

  it("lets a member without a password leave only within 10 minutes of signing in", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: false });
    await db()
      .delete(accounts)
      .where(and(eq(accounts.userId, member.id), eq(accounts.providerId, "credential")));
    await db()
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(sessions.userId, member.id));
    const page = await (await fetch(`${app().url}/profile/data`, { headers: { Cookie: member.cookie } })).text();
    expect(page).toContain("within 10 minutes of signing in");
    const stale = await postForm(app().url, "/profile/data", { intent: "delete", confirm: "on" }, member.cookie);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain("sign out and sign in again");
    await db().update(sessions).set({ createdAt: new Date() }).where(eq(sessions.userId, member.id));
    const fresh = await postForm(app().url, "/profile/data", { intent: "delete", confirm: "on" }, member.cookie);
    expect(fresh.status).toBe(302);
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, member.id));
    expect(profile!.email).toMatch(/@deleted\.invalid$/);
  });
});

describe("a manager deleting a member", () => {
  it("shows what happens, deletes on confirmation and audits it; cast are refused", async () => {
    const member = await fullMember(eventId, { secondFactor: false });
    const manager = await signedInMember("manager");
    const cast = await signedInMember("cast");
    const where = `/tools/members/${member.id}/delete`;

    const castPage = await fetch(app().url + where, { headers: { Cookie: cast.cookie }, redirect: "manual" });
    expect(castPage.status).toBe(302);
    expect(castPage.headers.get("Location")).toBe("/");
    expect((await postForm(app().url, where, { confirm: "on" }, cast.cookie)).status).toBe(403);
    expect((await db().select().from(profiles).where(eq(profiles.id, member.id)))[0]!.email).toBe(member.email);

    const page = (await (await fetch(app().url + where, { headers: { Cookie: manager.cookie } })).text()).replaceAll(
      "<!-- -->",
      "",
    );
    expect(page).toContain(`Delete the account of ${member.firstName} ${member.lastName}?`);
    expect(page).toContain("attendance and payment records");
    expect((await postForm(app().url, where, {}, manager.cookie)).status).toBe(400);
    const done = await postForm(app().url, where, { confirm: "on" }, manager.cookie);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("The account is deleted");
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.delete"), eq(auditLog.subjectId, member.id)));
    expect(entry).toMatchObject({ actorId: manager.id, details: { by: "manager" } });
    expect(await findInDatabase([member.email, member.firstName, member.lastName, member.phone])).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, "files", member.researchKey))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "files", member.costumeKeys.fileKey))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "files", member.costumeKeys.thumbKey))).toBe(false);
    // Once more: already deleted.
    const twice = await postForm(app().url, where, { confirm: "on" }, manager.cookie);
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain(DELETION_MESSAGES.alreadyDeleted);
    // A manager's own account and another manager's are not deleted from here.
    expect(
      (await postForm(app().url, `/tools/members/${manager.id}/delete`, { confirm: "on" }, manager.cookie)).status,
    ).toBe(400);
    expect(
      (await fetch(`${app().url}/tools/members/${crypto.randomUUID()}/delete`, { headers: { Cookie: manager.cookie } }))
        .status,
    ).toBe(404);
  });
});
