import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applicationValues, createProfile } from "~/platform/db/factories";
import { overrideConfig } from "~/platform/config.server";
import { applications, auditLog, characters, outbox, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm, validApplication } from "../../helpers/forms";
import { signedInMember } from "../../helpers/members";
import { deliverMailNow } from "../../helpers/outbox";
import { recipients, startSmtpServer } from "../../helpers/smtp";
import { readable } from "../../helpers/html";

const db = withTestDatabase();
const app = withAppServer();

async function applicantWithApplication(rolePreference: "player" | "cast") {
  const applicant = await signedInMember("applicant");
  await postForm(app().url, "/application", validApplication({ rolePreference }), applicant.cookie);
  const [row] = await db().select().from(applications).where(eq(applications.userId, applicant.id));
  return { applicant, applicationId: row!.id };
}

describe("reviewing applications", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    overrideConfig({ mail: { smtpUrl: smtp.url, from: "Hopewell <test@hopewell.local>" } });
  });
  afterAll(async () => {
    overrideConfig({ mail: { smtpUrl: undefined, from: "Hopewell <test@hopewell.local>" } });
    await smtp.close();
  });

  it("accepts: the applicant becomes what they asked to be, is emailed, and it is audited", async () => {
    const manager = await signedInMember("manager");
    for (const preference of ["player", "cast"] as const) {
      const { applicant, applicationId } = await applicantWithApplication(preference);
      const page = await (
        await fetch(`${app().url}/tools?tab=applications`, { headers: { Cookie: manager.cookie } })
      ).text();
      expect(page).toContain(applicant.email);
      const response = await postForm(
        app().url,
        "/tools?tab=applications",
        { intent: "accept", applicationId, confirm: "yes" },
        manager.cookie,
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("The acceptance email is on its way");
      const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
      expect(profile!.role).toBe(preference);
      const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
      expect(application).toMatchObject({ status: "accepted", decidedBy: manager.id });
      const emails = await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.kind} = 'email' and ${outbox.payload}->>'to' = ${applicant.email}`);
      expect(emails).toHaveLength(1);
      expect(String(emails[0]!.payload.text)).toContain("Dear Test");
      // The outbox worker delivers it over real SMTP to the applicant, by name.
      await deliverMailNow();
      const mail = await smtp.waitForMessage((m) => recipients(m).includes(applicant.email));
      expect(mail.subject).toBe("Welcome to Hopewell: your application has been accepted");
      expect(mail.text).toContain(`Dear ${applicant.firstName},`);
      expect(mail.text).toContain(preference === "cast" ? "welcome to the Hopewell cast" : "build your character");
      const audits = await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id));
      expect(audits.map((a) => a.action)).toContain("application.decide");
    }
  });

  it("rejects without sending anything and reminds the manager to write", async () => {
    const manager = await signedInMember("manager");
    const { applicant, applicationId } = await applicantWithApplication("player");
    const response = await postForm(
      app().url,
      "/tools?tab=applications",
      { intent: "reject", applicationId, confirm: "yes" },
      manager.cookie,
    );
    expect(await response.text()).toContain(`please write to ${applicant.email} yourself`);
    const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(profile!.role).toBe("applicant");
    expect(
      await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.payload}->>'to' = ${applicant.email}`),
    ).toEqual([]);
  });

  it("asks first: without confirm=yes a decision is a confirmation step, and nothing is decided, sent or audited", async () => {
    const manager = await signedInMember("manager");
    const { applicant, applicationId } = await applicantWithApplication("player");
    const name = `${applicant.firstName} applicant`;
    for (const intent of ["accept", "reject"] as const) {
      const asked = await postForm(app().url, "/tools?tab=applications", { intent, applicationId }, manager.cookie);
      expect(asked.status).toBe(200);
      const page = readable(await asked.text());
      expect(page).toContain(
        intent === "accept" ? `Accept ${name}'s application? They will be emailed.` : `Reject ${name}'s application?`,
      );
      const form =
        page.match(
          /<form [^>]*method="post"[^>]*>((?:(?!<\/form>).)*name="confirm" value="yes"(?:(?!<\/form>).)*)<\/form>/s,
        )?.[1] ?? "";
      expect(form).toContain(`name="intent" value="${intent}"`);
      expect(form).toContain(`name="applicationId" value="${applicationId}"`);
      expect(form).toContain(intent === "accept" ? "Yes, accept" : "Yes, reject");
      expect(page).not.toContain("The acceptance email is on its way");
    }
    const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
    expect(application).toMatchObject({ status: "pending", decidedBy: null });
    const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(profile!.role).toBe("applicant");
    expect(
      await db()
        .select()
        .from(outbox)
        .where(sql`${outbox.payload}->>'to' = ${applicant.email}`),
    ).toEqual([]);
    expect(await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id))).toEqual([]);

    // Confirmed, it is decided once and audited once.
    const confirmed = await postForm(
      app().url,
      "/tools?tab=applications",
      { intent: "reject", applicationId, confirm: "yes" },
      manager.cookie,
    );
    expect(readable(await confirmed.text())).toContain(`Rejected ${name}.`);
    expect((await db().select().from(applications).where(eq(applications.id, applicationId)))[0]!.status).toBe(
      "rejected",
    );
    expect(await db().select().from(auditLog).where(eq(auditLog.subjectId, applicant.id))).toHaveLength(1);
    // Asking again about a decided application says so rather than offering to decide it.
    const late = await postForm(
      app().url,
      "/tools?tab=applications",
      { intent: "accept", applicationId },
      manager.cookie,
    );
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Another manager has already rejected this application.");
  });

  it("shows pending applications first, filters by status with counts, and pages within the filter", async () => {
    const manager = await signedInMember("manager");
    const decided = async (status: "accepted" | "rejected", n: number) => {
      for (let i = 0; i < n; i++) {
        const profile = await createProfile(db(), { firstName: `${status}${i}`, lastName: "Filtered" });
        await db()
          .insert(applications)
          .values(applicationValues(profile, { status, createdAt: new Date(Date.now() + 60_000 + i) }));
      }
    };
    // More decided applications than a page, all newer than the pending one.
    await decided("accepted", 21);
    await decided("rejected", 2);
    const { applicant } = await applicantWithApplication("player");
    const counts = Object.fromEntries(
      (
        await db()
          .select({ status: applications.status, n: sql<number>`count(*)::int` })
          .from(applications)
          .groupBy(applications.status)
      ).map((r) => [r.status, r.n]),
    ) as Record<string, number>;
    const all = counts.pending! + counts.accepted! + counts.rejected!;
    const get = async (query: string) =>
      readable(
        await (
          await fetch(`${app().url}/tools?tab=applications${query}`, { headers: { Cookie: manager.cookie } })
        ).text(),
      );

    const first = await get("");
    expect(first).toContain(applicant.email);
    expect(first).not.toContain("accepted0.filtered");
    expect(first).toMatch(new RegExp(`aria-current="page"[^>]*>Pending<span[^>]*>\\(${counts.pending}\\)`));
    for (const [status, label, n] of [
      ["accepted", "Accepted", counts.accepted],
      ["rejected", "Rejected", counts.rejected],
      ["all", "All", all],
    ] as const) {
      expect(first).toMatch(
        new RegExp(`href="/tools\\?tab=applications&status=${status}"[^>]*>${label}<span[^>]*>\\(${n}\\)`),
      );
    }
    expect(first).toContain(`${counts.pending} pending application`);

    const accepted = await get("&status=accepted");
    expect(accepted).not.toContain(applicant.email);
    expect(accepted).not.toContain("rejected0.filtered");
    expect(accepted).toContain(`${counts.accepted} accepted applications`);
    expect(accepted).not.toContain(">Accept<");
    // The next page keeps the filter.
    expect(accepted).toContain('href="/tools?tab=applications&status=accepted&page=1"');
    const second = await get("&status=accepted&page=1");
    expect(second).toContain("Page 2 of 2");
    expect(second).not.toContain(applicant.email);

    const rejected = await get("&status=rejected");
    expect(rejected).toContain("rejected1.filtered");
    expect(rejected).not.toContain("accepted0.filtered");
    // An unknown status falls back to pending.
    expect(await get("&status=sheriff")).toContain(applicant.email);
  });

  it("lets the first of two managers deciding at once win, and tells the second", async () => {
    const [first, second] = [await signedInMember("manager"), await signedInMember("manager")];
    const { applicant, applicationId } = await applicantWithApplication("player");
    const responses = await Promise.all([
      postForm(app().url, "/tools?tab=applications", { intent: "accept", applicationId, confirm: "yes" }, first.cookie),
      postForm(
        app().url,
        "/tools?tab=applications",
        { intent: "reject", applicationId, confirm: "yes" },
        second.cookie,
      ),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.status === 409)!;
    expect(await loser.text()).toMatch(/Another manager has already (accepted|rejected) this application\./);
    const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
    const emails = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = ${applicant.email}`);
    expect(emails).toHaveLength(application!.status === "accepted" ? 1 : 0);
  });

  it("never demotes someone already given a higher role, and keeps cast from deciding", async () => {
    const manager = await signedInMember("manager");
    const { applicant, applicationId } = await applicantWithApplication("player");
    await db().update(profiles).set({ role: "manager" }).where(eq(profiles.id, applicant.id));
    const cast = await signedInMember("cast");
    expect(
      (
        await postForm(
          app().url,
          "/tools?tab=applications",
          { intent: "accept", applicationId, confirm: "yes" },
          cast.cookie,
        )
      ).status,
    ).toBe(403);
    await postForm(
      app().url,
      "/tools?tab=applications",
      { intent: "accept", applicationId, confirm: "yes" },
      manager.cookie,
    );
    const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(profile!.role).toBe("manager");
  });

  it("lists players with their characters, and cast and managers by first name", async () => {
    const cast = await signedInMember("cast");
    const player = await signedInMember("player");
    await db().insert(characters).values({
      userId: player.id,
      characterName: "Nell Fairweather",
      faction: "Homesteader",
      job: "Agrarian",
      backstory: "Grew corn in Ohio.",
    });
    const players = await (
      await fetch(`${app().url}/tools?tab=players&q=fairweather`, { headers: { Cookie: cast.cookie } })
    ).text();
    expect(players).toContain("Nell Fairweather · Homesteader · Agrarian");
    expect(players).toContain("Grew corn in Ohio.");
    const castList = await (await fetch(`${app().url}/tools?tab=cast`, { headers: { Cookie: cast.cookie } })).text();
    expect(castList).toContain(`Test`);
    expect(castList).not.toContain(player.email);
    // The managers' tabs are not served to cast, even by address.
    const sneaky = await (
      await fetch(`${app().url}/tools?tab=applications`, { headers: { Cookie: cast.cookie } })
    ).text();
    expect(sneaky).not.toContain("Read the answers");
  });
});
