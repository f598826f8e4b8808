import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COSTUME_MESSAGES } from "~/features/costume/costume.form";
import { daysBefore } from "~/game/costume";
import { clubToday, formatEventDate } from "~/lib/dates";
import { attendanceValues, createEvent } from "~/platform/db/factories";
import { auditLog, costumePhotos, costumeReviews, eventAttendance, reviewQueue } from "~/platform/db/schema";
import { sweepOrphanFiles } from "~/platform/storage/sweep.server";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";

/**
 * Costume photos over real HTTP: the member's page (due dates, countdowns), uploads judged by
 * content and size, EXIF gone from what is stored and served, thumbnails, who may fetch a
 * photo, removing one, and staff's verdicts with their audit rows.
 */
const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-costume-"));
const app = withAppServer({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Written into the test photo's EXIF: it must never come out again. */
const MARK = "HOPEWELL-SECRET-PLACE";

type Member = Awaited<ReturnType<typeof signedInMember>>;

const today = clubToday();
const inDays = (n: number) => daysBefore(today, -n);
let soon = { id: "", title: "", date: "" };
let late = { id: "", title: "", date: "" };
let past = { id: "", title: "", date: "" };
let unregistered = { id: "", title: "", date: "" };
let photoJpeg: Buffer;
let photoPng: Buffer;

beforeAll(async () => {
  soon = await createEvent(db(), { title: "Blood Moon Rising", date: inDays(19), status: "future" });
  late = await createEvent(db(), { title: "First Frost Falling", date: inDays(12), status: "future" });
  past = await createEvent(db(), { title: "Silver Fever Past", date: inDays(-20), status: "past" });
  unregistered = await createEvent(db(), { title: "The Thaw Elsewhere", date: inDays(40), status: "future" });
  // A camera's photo: 800 x 600 pixels stored on their side (orientation 6: turn a quarter right), with its position.
  photoJpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 120, g: 80, b: 40 } } })
    .withExif({
      IFD0: { Copyright: MARK, ImageDescription: MARK },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "41/1 59/1 26/1", GPSLongitudeRef: "W", GPSLongitude: "72/1 9/1 26/1" },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  photoPng = await sharp({
    create: { width: 300, height: 500, channels: 4, background: { r: 10, g: 200, b: 40, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
});

async function registered(
  role: "player" | "cast" | "manager" = "player",
  events = [soon, late, past],
): Promise<Member> {
  const member = await signedInMember(role);
  for (const event of events) await db().insert(eventAttendance).values(attendanceValues(member.id, event.id));
  return member;
}

function send(
  member: Member,
  eventId: string,
  file: { bytes: Buffer; name: string; type?: string } | null,
  to = "/costume",
) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("eventId", eventId);
  if (file)
    form.set(
      "photo",
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }),
      file.name,
    );
  return fetch(app().url + to, {
    method: "POST",
    headers: { Cookie: member.cookie, Origin: app().url },
    body: form,
    redirect: "manual",
  });
}

const page = async (member: Member, where = "/costume") =>
  (await (await fetch(app().url + where, { headers: { Cookie: member.cookie } })).text()).replaceAll("<!-- -->", "");
const photosOf = (userId: string) =>
  db().select().from(costumePhotos).where(eq(costumePhotos.userId, userId)).orderBy(costumePhotos.createdAt);
const stored = (key: string) => fs.readFileSync(path.join(dataDir, "files", key));
const folder = (userId: string) => {
  const dir = path.join(dataDir, "files", "costumes", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe("the member's costume page", () => {
  it("lists each upcoming event the member is registered for, with the due date and a countdown", async () => {
    const member = await registered();
    const html = await page(member);
    expect(html).toContain(soon.title);
    expect(html).toContain(`${formatEventDate(inDays(5))} · `);
    expect(html).toContain("due in 5 days");
    expect(html).toContain(late.title);
    expect(html).toContain("overdue by 2 days");
    expect(html).toContain("No photo yet");
    for (const other of [past, unregistered]) expect(html).not.toContain(other.title);

    const newcomer = await signedInMember("player");
    expect(await page(newcomer)).toContain("You are not registered for any upcoming event");
    // Applicants have no costume to show yet.
    const applicant = await signedInMember("applicant");
    const refused = await fetch(`${app().url}/costume`, { headers: { Cookie: applicant.cookie }, redirect: "manual" });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/");
  });

  it("stores a JPG upright and without its EXIF, makes a thumbnail, and serves both", async () => {
    const member = await registered();
    const sent = await send(member, soon.id, { bytes: photoJpeg, name: "IMG_0042.JPG", type: "image/jpeg" });
    // Answered with the page fetched anew at the event, saying so: a reload then sends nothing again.
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe(`/costume?done=uploaded&event=${soon.id}#costume-${soon.id}`);
    const after = await page(member, sent.headers.get("Location")!);
    expect(after).toContain(COSTUME_MESSAGES.uploaded);
    expect(await page(member)).not.toContain(COSTUME_MESSAGES.uploaded);
    const [row] = await photosOf(member.id);
    expect(row).toMatchObject({ eventId: soon.id, fileType: "image/jpeg", width: 600, height: 800 });
    expect(row!.fileKey).toMatch(new RegExp(`^costumes/${member.id}/[0-9a-f]{32}\\.jpg$`));
    expect(row!.thumbKey).toBe(row!.fileKey.replace(/\.jpg$/, "-thumb.jpg"));
    // What was sent had them: the mark, the position and the orientation.
    expect(photoJpeg.includes(MARK)).toBe(true);
    expect(await sharp(photoJpeg).metadata()).toMatchObject({ orientation: 6, width: 800, height: 600 });
    expect((await sharp(photoJpeg).metadata()).exif!.includes("N\0")).toBe(true);

    const photo = stored(row!.fileKey);
    const thumb = stored(row!.thumbKey);
    for (const bytes of [photo, thumb]) {
      expect(bytes.includes(MARK)).toBe(false);
      expect(bytes.includes("Exif\0\0")).toBe(false);
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(meta.format).toBe("jpeg");
    }
    expect(await sharp(photo).metadata()).toMatchObject({ width: 600, height: 800 });
    expect(await sharp(thumb).metadata()).toMatchObject({ width: 360, height: 480 });
    expect(row!.fileSize).toBe(photo.length);

    const served = await fetch(`${app().url}/costume/photos/${row!.id}`, { headers: { Cookie: member.cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(served.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(served.headers.get("Cache-Control")).toContain("no-store");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(photo);
    const servedThumb = await fetch(`${app().url}/costume/photos/${row!.id}/thumb`, {
      headers: { Cookie: member.cookie },
    });
    expect(servedThumb.headers.get("Content-Type")).toBe("image/jpeg");
    expect(Buffer.from(await servedThumb.arrayBuffer())).toEqual(thumb);

    // The page shows it, waiting for staff.
    const html = await page(member);
    expect(html).toContain(`src="/costume/photos/${row!.id}/thumb"`);
    expect(html).toContain("Waiting for review");
    // Without JavaScript, the page that answers an upload or a removal opens at the event's section.
    expect(html).toContain(`<section id="costume-${soon.id}"`);
    expect(html.match(new RegExp(`action="/costume#costume-${soon.id}"`, "g"))).toHaveLength(2);
    // The daily sweep of unreferenced files keeps both: the row names them.
    await sweepOrphanFiles({ graceMs: 0, now: Date.now() + 60_000 });
    expect(folder(member.id).sort()).toEqual([path.basename(row!.fileKey), path.basename(row!.thumbKey)].sort());
  });

  it("names each event's section and controls by its title and date, and its forms return to it", async () => {
    // Two events of one title: each region, field and button is told apart by its date.
    const first = await createEvent(db(), { title: "Twin Lanterns", date: inDays(30), status: "future" });
    const second = await createEvent(db(), { title: "Twin Lanterns", date: inDays(37), status: "future" });
    const member = await registered("player", [first, second]);
    await send(member, second.id, { bytes: photoJpeg, name: "a.jpg" });
    const html = await page(member);
    for (const event of [first, second]) {
      const anchor = `costume-${event.id}`;
      const name = `Twin Lanterns, ${formatEventDate(event.date)}`;
      expect(html).toContain(`<section id="${anchor}" aria-labelledby="${anchor}-title ${anchor}-date"`);
      expect(html).toContain(`<h2 id="${anchor}-title" class="text-2xl">Twin Lanterns</h2>`);
      expect(html).toContain(
        `<span id="${anchor}-date" class="text-sm text-dust">${formatEventDate(event.date)}</span>`,
      );
      expect(html).toContain(`Upload photo<span class="sr-only"> for ${name}</span>`);
      // Without JavaScript, the page that answers an upload or a removal opens at the event.
      expect(html).toContain(`action="/costume#${anchor}"`);
    }
    expect(html).toContain(
      `Your costume photo<span class="sr-only"> for Twin Lanterns, ${formatEventDate(first.date)}</span>`,
    );
    expect(html).toContain(
      `Another photo<span class="sr-only"> for Twin Lanterns, ${formatEventDate(second.date)}</span>`,
    );
    expect(html.match(/action="\/costume#costume-[^"]+"/g)).toHaveLength(3);
  });

  it("judges a PNG by its content, whatever its name, and keeps it a PNG", async () => {
    const member = await registered();
    expect((await send(member, late.id, { bytes: photoPng, name: "costume.jpeg" })).status).toBe(303);
    const [row] = await photosOf(member.id);
    expect(row).toMatchObject({ eventId: late.id, fileType: "image/png", width: 300, height: 500 });
    expect(row!.fileKey).toMatch(/\.png$/);
    expect((await sharp(stored(row!.fileKey)).metadata()).format).toBe("png");
    expect((await sharp(stored(row!.thumbKey)).metadata()).format).toBe("jpeg");
  });

  it("refuses what is not a JPG or PNG by content, a file too large, an unreadable image and an event not theirs, keeping nothing", async () => {
    const member = await registered();
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#804020" } })
      .gif()
      .toBuffer();
    const cases: [string, { bytes: Buffer; name: string } | null, number, string][] = [
      [
        soon.id,
        { bytes: Buffer.from("<html><script>alert(1)</script></html>"), name: "costume.jpg" },
        400,
        COSTUME_MESSAGES.fileType,
      ],
      [
        soon.id,
        { bytes: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), name: "costume.png" },
        400,
        COSTUME_MESSAGES.fileType,
      ],
      [soon.id, { bytes: gif, name: "costume.gif" }, 400, COSTUME_MESSAGES.fileType],
      // Starts like a JPEG, but is cut off.
      [soon.id, { bytes: photoJpeg.subarray(0, 300), name: "broken.jpg" }, 400, COSTUME_MESSAGES.unreadable],
      [soon.id, null, 400, COSTUME_MESSAGES.chooseFile],
      [
        soon.id,
        { bytes: Buffer.concat([photoJpeg, Buffer.alloc(5 * 1024 * 1024)]), name: "huge.jpg" },
        413,
        COSTUME_MESSAGES.fileSize,
      ],
      [unregistered.id, { bytes: photoJpeg, name: "a.jpg" }, 400, COSTUME_MESSAGES.notRegistered],
      [past.id, { bytes: photoJpeg, name: "a.jpg" }, 400, COSTUME_MESSAGES.notRegistered],
      ["not-an-event", { bytes: photoJpeg, name: "a.jpg" }, 400, COSTUME_MESSAGES.notRegistered],
    ];
    for (const [eventId, file, status, message] of cases) {
      const response = await send(member, eventId, file);
      expect(response.status, file?.name ?? "no file").toBe(status);
      expect(await response.text(), file?.name ?? "no file").toContain(message);
    }
    expect(await photosOf(member.id)).toEqual([]);
    expect(folder(member.id)).toEqual([]);
    // A post that is not multipart at all gets the form's message, not a server error.
    const plain = await postForm(app().url, "/costume", { intent: "upload", eventId: soon.id }, member.cookie);
    expect(plain.status).toBe(400);
    expect(await plain.text()).toContain(COSTUME_MESSAGES.chooseFile);
  });

  it("answers the page's script at /costume/upload in JSON: where the page goes once a photo is saved, or why it was refused", async () => {
    const member = await registered();
    const saved = await send(member, soon.id, { bytes: photoJpeg, name: "porch.jpg" }, "/costume/upload");
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ to: `/costume?done=uploaded&event=${soon.id}#costume-${soon.id}` });
    expect(await photosOf(member.id)).toHaveLength(1);
    const refused = await send(
      member,
      soon.id,
      { bytes: Buffer.from("not a photo"), name: "a.jpg" },
      "/costume/upload",
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ eventId: soon.id, message: COSTUME_MESSAGES.fileType });
    expect(await photosOf(member.id)).toHaveLength(1);
  });

  it("serves a photo to its owner, cast and managers, and to nobody else", async () => {
    const owner = await registered();
    await send(owner, soon.id, { bytes: photoJpeg, name: "a.jpg" });
    const [row] = await photosOf(owner.id);
    // Its button names the photo and the event, as photos for two events may be sent in one minute.
    expect(await page(owner)).toMatch(
      new RegExp(`aria-label="Remove photo 1 of 1, sent [^"]+, for ${soon.title}, ${formatEventDate(soon.date)}"`),
    );
    const other = await registered();
    for (const suffix of ["", "/thumb"]) {
      const url = `${app().url}/costume/photos/${row!.id}${suffix}`;
      expect((await fetch(url, { headers: { Cookie: owner.cookie } })).status).toBe(200);
      expect((await fetch(url, { headers: { Cookie: other.cookie } })).status, `another player ${suffix}`).toBe(404);
      for (const role of ["cast", "manager"] as const)
        expect((await fetch(url, { headers: { Cookie: (await signedInMember(role)).cookie } })).status, role).toBe(200);
      const anonymous = await fetch(url, { redirect: "manual" });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
      expect(
        (await fetch(`${app().url}/costume/photos/${randomUUID()}${suffix}`, { headers: { Cookie: owner.cookie } }))
          .status,
      ).toBe(404);
    }
    // Nothing stored is reachable as a public file.
    expect((await fetch(`${app().url}/${row!.fileKey}`)).status).toBe(404);
    expect((await fetch(`${app().url}/files/${row!.fileKey}`)).status).toBe(404);
  });

  it("lets only the owner remove a photo, and its files go with it", async () => {
    const owner = await registered();
    await send(owner, soon.id, { bytes: photoJpeg, name: "a.jpg" });
    const [row] = await photosOf(owner.id);
    // Its button names the photo and the event, as photos for two events may be sent in one minute.
    expect(await page(owner)).toMatch(
      new RegExp(`aria-label="Remove photo 1 of 1, sent [^"]+, for ${soon.title}, ${formatEventDate(soon.date)}"`),
    );
    const other = await registered();
    const refused = await postForm(
      app().url,
      "/costume",
      { intent: "remove", eventId: soon.id, photoId: row!.id },
      other.cookie,
    );
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain(COSTUME_MESSAGES.noSuchPhoto);
    expect(await photosOf(owner.id)).toHaveLength(1);

    const removed = await postForm(
      app().url,
      "/costume",
      { intent: "remove", eventId: soon.id, photoId: row!.id },
      owner.cookie,
    );
    expect(removed.status).toBe(303);
    expect(await page(owner, removed.headers.get("Location")!)).toContain(COSTUME_MESSAGES.removed);
    expect(await photosOf(owner.id)).toEqual([]);
    expect(folder(owner.id)).toEqual([]);
  });
});

describe("staff's review of costume photos", () => {
  /** A verdict from a page drawn now (it carries the verdict in force), unless `decidedOver` is given. */
  const verdict = async (staff: Member, fields: Record<string, string>) => {
    const [current] = fields.userId
      ? await db()
          .select()
          .from(costumeReviews)
          .where(and(eq(costumeReviews.userId, fields.userId), eq(costumeReviews.eventId, soon.id)))
      : [];
    return postForm(
      app().url,
      `/view-costumes?event=${soon.id}`,
      { decidedOver: current?.reviewedAt.toISOString() ?? "", ...fields },
      staff.cookie,
    );
  };

  it("asks for changes with a note the player reads, approves, and audits each verdict", async () => {
    const player = await registered();
    const cast = await signedInMember("cast");
    const manager = await signedInMember("manager");
    await send(player, soon.id, { bytes: photoJpeg, name: "a.jpg" });
    const [first] = await photosOf(player.id);

    const review = await page(cast, `/view-costumes?event=${soon.id}`);
    expect(review).toContain(soon.title);
    expect(review).toContain(`${player.firstName} player`);
    expect(review).toContain(`src="/costume/photos/${first!.id}/thumb"`);
    expect(review).toContain("Waiting for review");
    // Each verdict's buttons name the member; the form returns to the member's entry.
    expect(review).toContain(`<article id="costume-${player.id}" aria-labelledby="costume-${player.id}-name"`);
    expect(review).toContain(`action="/view-costumes?event=${soon.id}#costume-${player.id}"`);
    expect(review).toContain(`Approve<span class="sr-only"> ${player.firstName} player&#x27;s costume photos</span>`);
    expect(review).toContain(
      `Ask for changes<span class="sr-only"> to ${player.firstName} player&#x27;s costume</span>`,
    );

    // Players do not judge costumes.
    expect(
      (
        await verdict(player, {
          userId: player.id,
          eventId: soon.id,
          latestPhotoId: first!.id,
          verdict: "approved",
          note: "",
        })
      ).status,
    ).toBe(403);
    // Changes need a note; a verdict on photos staff have not seen is refused.
    const noNote = await verdict(cast, {
      userId: player.id,
      eventId: soon.id,
      latestPhotoId: first!.id,
      verdict: "changes_requested",
      note: " ",
    });
    expect(noNote.status).toBe(400);
    expect(await noNote.text()).toContain(COSTUME_MESSAGES.noteRequired);
    const unseen = await verdict(cast, {
      userId: player.id,
      eventId: soon.id,
      latestPhotoId: randomUUID(),
      verdict: "approved",
      note: "",
    });
    expect(unseen.status).toBe(409);
    expect(await unseen.text()).toContain(COSTUME_MESSAGES.newPhotos);
    expect(await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id))).toEqual([]);

    const note = "Lose the sneakers; boots only.";
    const asked = await verdict(cast, {
      userId: player.id,
      eventId: soon.id,
      latestPhotoId: first!.id,
      verdict: "changes_requested",
      note,
    });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(COSTUME_MESSAGES.changesRequested);
    expect(await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id))).toEqual([
      expect.objectContaining({ eventId: soon.id, verdict: "changes_requested", note, reviewedBy: cast.id }),
    ]);
    // A verdict answers the member's entry in the review queue.
    expect(
      await db()
        .select({ status: reviewQueue.status })
        .from(reviewQueue)
        .where(eq(reviewQueue.entryId, `${soon.id}:${player.id}`)),
    ).toEqual([{ status: "answered" }]);
    const [askedAudit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, player.id), eq(auditLog.action, "costume.request_changes")));
    expect(askedAudit).toMatchObject({
      actorId: cast.id,
      details: { event: soon.title, eventDate: soon.date, photos: 1 },
    });
    let mine = await page(player);
    expect(mine).toContain("Changes requested");
    expect(mine).toContain(note);

    // A new photo puts it back for review; the old note stays in sight.
    await send(player, soon.id, { bytes: photoPng, name: "b.png" });
    const second = (await photosOf(player.id)).at(-1)!;
    mine = await page(player);
    expect(mine).toContain("Waiting for review");
    expect(mine).toContain(note);
    // ...and back in the staff's queue.
    expect(
      await db()
        .select({ status: reviewQueue.status })
        .from(reviewQueue)
        .where(eq(reviewQueue.entryId, `${soon.id}:${player.id}`)),
    ).toEqual([{ status: "new" }]);
    // A verdict on the first photo only is refused now; the page that says so shows the new photo, and a verdict from it names it.
    const stale = await verdict(manager, {
      userId: player.id,
      eventId: soon.id,
      latestPhotoId: first!.id,
      verdict: "approved",
      note: "",
    });
    expect(stale.status).toBe(409);
    const staleHtml = await stale.text();
    expect(staleHtml).toContain(COSTUME_MESSAGES.newPhotos);
    expect(staleHtml).toContain(`src="/costume/photos/${second.id}/thumb"`);
    expect(staleHtml).toContain(`name="latestPhotoId" value="${second.id}"`);
    expect(await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id))).toEqual([
      expect.objectContaining({ verdict: "changes_requested" }),
    ]);

    // The page the manager decides from carries the verdict it shows.
    expect(staleHtml).toContain(
      `name="decidedOver" value="${(await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id)))[0]!.reviewedAt.toISOString()}"`,
    );
    const approval = { userId: player.id, eventId: soon.id, latestPhotoId: second.id, verdict: "approved", note: "" };
    const seenBefore = (
      await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id))
    )[0]!.reviewedAt.toISOString();
    const approved = await verdict(manager, approval);
    expect(approved.status).toBe(200);
    const [row] = await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id));
    expect(row).toMatchObject({ verdict: "approved", note: "", reviewedBy: manager.id });
    // Sent again by a reload: nothing changes and nothing more is audited.
    expect((await verdict(manager, { ...approval, decidedOver: seenBefore })).status).toBe(200);
    expect(
      (await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id)))[0]!.reviewedAt,
    ).toEqual(row!.reviewedAt);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.subjectId, player.id), eq(auditLog.action, "costume.approve"))),
    ).toHaveLength(1);
    // A page drawn before the approval cannot overturn it: refused, with the approval standing.
    const overturn = await verdict(cast, {
      ...approval,
      verdict: "changes_requested",
      note: "Hat, please.",
      decidedOver: seenBefore,
    });
    expect(overturn.status).toBe(409);
    expect(await overturn.text()).toContain(COSTUME_MESSAGES.decidedSince);
    expect(await db().select().from(costumeReviews).where(eq(costumeReviews.userId, player.id))).toEqual([
      expect.objectContaining({ verdict: "approved", reviewedBy: manager.id }),
    ]);
    const [approvedAudit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, player.id), eq(auditLog.action, "costume.approve")));
    expect(approvedAudit).toMatchObject({ actorId: manager.id, details: { event: soon.title, photos: 2 } });
    mine = await page(player);
    expect(mine).toContain("Approved");
    // No countdown for an approved costume (the page's data still carries it).
    expect(mine).not.toMatch(/data-testid="costume-countdown"[^>]*>due in 5 days/);
    expect(mine).toMatch(/data-testid="costume-countdown"[^>]*>overdue by 2 days/);
    expect(mine).not.toContain(note);

    // The audit log says it in words.
    const audit = await page(manager, "/tools?tab=audit");
    expect(audit).toContain(`approved the costume photos of ${player.firstName} player`);
    expect(audit).toContain(`asked for costume changes from ${player.firstName} player`);
  });

  it("lists every accepted member registered for the event, and refuses a verdict on someone without photos", async () => {
    const waiting = await registered();
    const missing = await registered();
    const cast = await signedInMember("cast");
    await send(waiting, soon.id, { bytes: photoJpeg, name: "a.jpg" });
    const html = await page(cast, `/view-costumes?event=${soon.id}`);
    expect(html).toContain(`${missing.firstName} player`);
    expect(html).toContain("No photo sent yet.");
    // Waiting ones come first.
    expect(html.indexOf(`${waiting.firstName} player`)).toBeLessThan(html.indexOf(`${missing.firstName} player`));
    const refused = await verdict(cast, {
      userId: missing.id,
      eventId: soon.id,
      latestPhotoId: randomUUID(),
      verdict: "approved",
      note: "",
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(COSTUME_MESSAGES.noPhotos);
    // The events: upcoming ones, and past ones only when they have photos.
    const events = await page(cast, "/view-costumes");
    expect(events).toContain(soon.title);
    expect(events).toContain(unregistered.title);
    expect(events).not.toContain(past.title);
  });
});
