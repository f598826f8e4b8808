import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "~/game/roles";
import { config, overrideConfig } from "~/platform/config.server";
import { createEvent, researchValues } from "~/platform/db/factories";
import { costumePhotos, research } from "~/platform/db/schema";
import { costumeKeys, researchKey, saveFile } from "~/platform/storage/storage.server";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

/**
 * Members' files are served to their owner and to staff. Reading someone else's is a staff right,
 * used from member-level addresses (the route table lets every member reach them), so the
 * second-factor rule of the staff pages (REQUIRE_MANAGER_2FA, REQUIRE_CAST_2FA) must hold there
 * too: a password-only session of a manager reads only their own files.
 */
const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-staff-rights-"));
const app = withAppServer({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let eventId = "";
beforeAll(async () => {
  eventId = (await createEvent(db(), { title: "The Long Dark", date: "2099-10-02", status: "future" })).id;
});

const savedTwoFactor = config().twoFactor;
afterEach(() => overrideConfig({ twoFactor: savedTwoFactor }));

/** A member's research paper and costume photo, stored and recorded: the addresses that serve them. */
async function filesOf(userId: string): Promise<string[]> {
  const paperKey = researchKey(userId, "png");
  await saveFile(paperKey, PNG, { contentType: "image/png" });
  const [paper] = await db()
    .insert(research)
    .values(researchValues(userId, eventId, { key: paperKey, name: "ledger.png", type: "image/png", size: PNG.length }))
    .returning({ id: research.id });
  const { fileKey, thumbKey } = costumeKeys(userId, "png");
  await saveFile(fileKey, PNG, { contentType: "image/png" });
  await saveFile(thumbKey, PNG, { contentType: "image/jpeg" });
  const [photo] = await db()
    .insert(costumePhotos)
    .values({ userId, eventId, fileKey, thumbKey, fileType: "image/png", fileSize: PNG.length, width: 1, height: 1 })
    .returning({ id: costumePhotos.id });
  return [`/research/${paper!.id}/file`, `/costume/photos/${photo!.id}`, `/costume/photos/${photo!.id}/thumb`];
}

/** The status of GET and HEAD of each address, with `cookie`. */
async function statuses(addresses: string[], cookie: string): Promise<number[]> {
  const answers: number[] = [];
  for (const address of addresses) {
    for (const method of ["GET", "HEAD"]) {
      const response = await fetch(app().url + address, { method, headers: { Cookie: cookie }, redirect: "manual" });
      const body = Buffer.from(await response.arrayBuffer());
      // A refusal never carries the file.
      if (response.status !== 200) expect(body.includes(PNG)).toBe(false);
      answers.push(response.status);
    }
  }
  return answers;
}

const all = (status: number) => Array(6).fill(status);

/** A member of `role` signed in with a password alone (aal1), or after a second factor (aal2). */
const staffMember = (role: Role, proven: boolean) =>
  signedInMember(role, undefined, { secondFactor: proven ? undefined : false });

describe("staff rights on members' files", () => {
  it("are refused to a manager without a second factor while REQUIRE_MANAGER_2FA is on, who still gets their own files", async () => {
    expect(config().twoFactor.requireManager).toBe(true);
    const player = await signedInMember("player");
    const theirs = await filesOf(player.id);
    expect(await statuses(theirs, player.cookie)).toEqual(all(200));

    const passwordOnly = await staffMember("manager", false);
    expect(await statuses(theirs, passwordOnly.cookie)).toEqual(all(404));
    expect(await statuses(await filesOf(passwordOnly.id), passwordOnly.cookie)).toEqual(all(200));

    const proven = await staffMember("manager", true);
    expect(await statuses(theirs, proven.cookie)).toEqual(all(200));

    // The rule follows the setting, as on the staff pages.
    overrideConfig({ twoFactor: { ...savedTwoFactor, requireManager: false } });
    expect(await statuses(theirs, passwordOnly.cookie)).toEqual(all(200));
  });

  it("follow REQUIRE_CAST_2FA for cast", async () => {
    expect(config().twoFactor.requireCast).toBe(false);
    const player = await signedInMember("player");
    const theirs = await filesOf(player.id);
    const passwordOnly = await staffMember("cast", false);
    expect(await statuses(theirs, passwordOnly.cookie)).toEqual(all(200));

    overrideConfig({ twoFactor: { ...savedTwoFactor, requireCast: true } });
    expect(await statuses(theirs, passwordOnly.cookie)).toEqual(all(404));
    expect(await statuses(await filesOf(passwordOnly.id), passwordOnly.cookie)).toEqual(all(200));
    expect(await statuses(theirs, (await staffMember("cast", true)).cookie)).toEqual(all(200));
  });

  it("are never a player's, signed in however", async () => {
    const owner = await signedInMember("player");
    const other = await signedInMember("player");
    expect(await statuses(await filesOf(owner.id), other.cookie)).toEqual(all(404));
  });
});
