import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overrideConfig } from "~/server/config.server";
import { applications, auditLog, characters, outbox, profiles } from "~/server/db/schema";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { postForm, validApplication } from "../helpers/forms";
import { signedInMember } from "../helpers/members";
import { deliverMailNow } from "../helpers/outbox";
import { recipients, startSmtpServer } from "../helpers/smtp";

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
      const page = await (await fetch(`${app().url}/tools?tab=applications`, { headers: { Cookie: manager.cookie } })).text();
      expect(page).toContain(applicant.email);
      const response = await postForm(app().url, "/tools?tab=applications", { intent: "accept", applicationId }, manager.cookie);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("The acceptance email is on its way");
      const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
      expect(profile!.role).toBe(preference);
      const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
      expect(application).toMatchObject({ status: "accepted", decidedBy: manager.id });
      const emails = await db().select().from(outbox).where(sql`${outbox.kind} = 'email' and ${outbox.payload}->>'to' = ${applicant.email}`);
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
    const response = await postForm(app().url, "/tools?tab=applications", { intent: "reject", applicationId }, manager.cookie);
    expect(await response.text()).toContain(`please write to ${applicant.email} yourself`);
    const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(profile!.role).toBe("applicant");
    expect(await db().select().from(outbox).where(sql`${outbox.payload}->>'to' = ${applicant.email}`)).toEqual([]);
  });

  it("lets the first of two managers deciding at once win, and tells the second", async () => {
    const [first, second] = [await signedInMember("manager"), await signedInMember("manager")];
    const { applicant, applicationId } = await applicantWithApplication("player");
    const responses = await Promise.all([
      postForm(app().url, "/tools?tab=applications", { intent: "accept", applicationId }, first.cookie),
      postForm(app().url, "/tools?tab=applications", { intent: "reject", applicationId }, second.cookie),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.status === 409)!;
    expect(await loser.text()).toMatch(/Another manager has already (accepted|rejected) this application\./);
    const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
    const emails = await db().select().from(outbox).where(sql`${outbox.payload}->>'to' = ${applicant.email}`);
    expect(emails).toHaveLength(application!.status === "accepted" ? 1 : 0);
  });

  it("never demotes someone already given a higher role, and keeps cast from deciding", async () => {
    const manager = await signedInMember("manager");
    const { applicant, applicationId } = await applicantWithApplication("player");
    await db().update(profiles).set({ role: "manager" }).where(eq(profiles.id, applicant.id));
    const cast = await signedInMember("cast");
    expect((await postForm(app().url, "/tools?tab=applications", { intent: "accept", applicationId }, cast.cookie)).status).toBe(403);
    await postForm(app().url, "/tools?tab=applications", { intent: "accept", applicationId }, manager.cookie);
    const [profile] = await db().select({ role: profiles.role }).from(profiles).where(eq(profiles.id, applicant.id));
    expect(profile!.role).toBe("manager");
  });

  it("lists players with their characters, and cast and managers by first name", async () => {
    const cast = await signedInMember("cast");
    const player = await signedInMember("player");
    await db().insert(characters).values({ userId: player.id, characterName: "Nell Fairweather", faction: "Homesteader", job: "Agrarian", backstory: "Grew corn in Ohio." });
    const players = await (await fetch(`${app().url}/tools?tab=players&q=fairweather`, { headers: { Cookie: cast.cookie } })).text();
    expect(players).toContain("Nell Fairweather · Homesteader · Agrarian");
    expect(players).toContain("Grew corn in Ohio.");
    const castList = await (await fetch(`${app().url}/tools?tab=cast`, { headers: { Cookie: cast.cookie } })).text();
    expect(castList).toContain(`Test`);
    expect(castList).not.toContain(player.email);
    // The managers' tabs are not served to cast, even by address.
    const sneaky = await (await fetch(`${app().url}/tools?tab=applications`, { headers: { Cookie: cast.cookie } })).text();
    expect(sneaky).not.toContain("Read the answers");
  });
});
