import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RESEARCH_MESSAGES, SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { PEL_QUESTIONS } from "~/game/pel";
import { createEvent } from "~/platform/db/factories";
import { events, letters, pels, profiles, research } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { signedInMember } from "../helpers/members";

const db = withTestDatabase();
const app = withAppServer();

/**
 * Saving fails for a reason the member cannot fix (here: the table refuses every new or changed
 * row, while reads still work). Each form answers 500 with its own message (docs/product.md#messages) and
 * comes back with what the member typed, and nothing is saved.
 */
async function whileRefusingWrites<T>(table: string, work: () => Promise<T>): Promise<T> {
  // NOT VALID: existing rows are not checked, so the page's reads keep working.
  await db().execute(sql.raw(`alter table ${table} add constraint refuse_writes check (false) not valid`));
  try {
    return await work();
  } finally {
    await db().execute(sql.raw(`alter table ${table} drop constraint refuse_writes`));
  }
}

let heldEvent: { id: string };
beforeAll(async () => {
  heldEvent = await createEvent(db(), { title: "The Long Dark", date: "2025-10-17", status: "past" });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("an action whose save fails", () => {
  it("keeps the letter that was typed, shows the letter page's message and logs the failure once", async () => {
    const member = await signedInMember("player");
    const errors = vi.spyOn(logger, "error");
    const response = await whileRefusingWrites("letters", () =>
      postForm(
        app().url,
        "/letters",
        { submissionKey: randomUUID(), recipient: "Ma Holt", body: "The well ran dry on Tuesday." },
        member.cookie,
      ),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain(SUBMISSION_MESSAGES.letterFailed);
    expect(html).toContain('value="Ma Holt"');
    expect(html).toContain("The well ran dry on Tuesday.");
    expect(html).toContain('href="/profile"');
    expect(await db().select().from(letters).where(eq(letters.userId, member.id))).toEqual([]);
    // Logged once, by the action, naming what failed (not again as a failed request).
    expect(errors.mock.calls.map((call) => call[1])).toEqual(["saving a letter failed"]);
  });

  it("keeps the post-event letter that was typed and shows the PEL page's message", async () => {
    const member = await signedInMember("player");
    const fields = {
      submissionKey: randomUUID(),
      eventId: heldEvent.id,
      characterName: "Clara Dunmore",
      ...Object.fromEntries(PEL_QUESTIONS.map((q) => [q.key, `About ${q.key}: the bell rang twice.`])),
    };
    const response = await whileRefusingWrites("pels", () => postForm(app().url, "/pels", fields, member.cookie));
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain(SUBMISSION_MESSAGES.pelFailed);
    expect(html).toContain('value="Clara Dunmore"');
    expect(html).toContain(`About ${PEL_QUESTIONS[0]!.key}: the bell rang twice.`);
    expect(await db().select().from(pels).where(eq(pels.userId, member.id))).toEqual([]);
  });

  it("keeps the research that was typed, without JavaScript, and shows the research page's message", async () => {
    const member = await signedInMember("player");
    const form = new FormData();
    form.set("submissionKey", randomUUID());
    form.set("eventId", heldEvent.id);
    form.set("sources", "The assayer's ledger, page forty.");
    form.set("research", "The ore hums when the lamps go out.");
    // A real 1x1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    form.set("file", new Blob([new Uint8Array(png)]), "ore.png");
    const response = await whileRefusingWrites("research", () =>
      fetch(`${app().url}/research`, {
        method: "POST",
        headers: { Cookie: member.cookie, Origin: app().url },
        body: form,
      }),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain(RESEARCH_MESSAGES.failed);
    expect(html).toContain("The assayer&#x27;s ledger, page forty.");
    expect(html).toContain("The ore hums when the lamps go out.");
    expect(await db().select().from(research).where(eq(research.userId, member.id))).toEqual([]);
  });

  it("keeps the emergency contact that was typed and shows the profile's message", async () => {
    const member = await signedInMember("player");
    const response = await whileRefusingWrites("profiles", () =>
      postForm(app().url, "/profile", { intent: "contact", name: "Ma Holt", phone: "(860) 555-0142" }, member.cookie),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Failed to save emergency contact. Please try again.");
    expect(html).toContain('value="Ma Holt"');
    expect(html).toContain('value="(860) 555-0142"');
    const [row] = await db()
      .select({ contact: profiles.emergencyContact })
      .from(profiles)
      .where(eq(profiles.id, member.id));
    expect(row!.contact).toBeNull();
  });

  it("keeps a new event's details and shows the event manager's message", async () => {
    const manager = await signedInMember("manager");
    const response = await whileRefusingWrites("events", () =>
      postForm(
        app().url,
        "/events/manage",
        { intent: "create", title: "Blood Moon", date: "2027-05-14", status: "future", ticketUrl: "" },
        manager.cookie,
      ),
    );
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Failed to save the event. Please try again.");
    expect(html).toContain('value="Blood Moon"');
    expect(await db().select().from(events).where(eq(events.title, "Blood Moon"))).toEqual([]);
  });
});
