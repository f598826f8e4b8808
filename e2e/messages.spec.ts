import { request as playwrightRequest } from "@playwright/test";
import { formatEventDate } from "../app/lib/dates";
import { E2E_SMTP_PORT } from "../playwright.config";
import { headerOf, recipients, startSmtpServer } from "../tests/helpers/smtp";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { addAttendance, addEvent, createMember, signInByPost } from "./helpers";

// A manager's whole message, two members' inboxes and pages, and a second message: one journey.
test.describe.configure({ timeout: 180_000 });
// One real SMTP server on a fixed port, so one browser at a time runs this.
test.skip(({ isMobile }) => isMobile, "runs once, at desktop width: the compose page is checked at both in every-page");

test("a manager writes to those holding a place for an event: preview, a test to themselves, one email each with the unsubscribe headers, Notices, and a one-click unsubscribe the next message honours", async ({
  page,
  browser,
  baseURL,
  managerState,
}) => {
  const tag = `${Date.now() % 100_000}`;
  const event = { title: `Muster at the Mine ${tag}`, date: "2027-03-13" };
  const eventLabel = `${event.title} (${formatEventDate(event.date)})`;
  const hattie = await createMember({ first: "Hattie", last: `Parker${tag}` });
  const silas = await createMember({ first: "Silas", last: `Parker${tag}` });
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  try {
    await withSession(page, managerState);
    await addEvent(page, { ...event, status: "future" });
    for (const member of [hattie, silas])
      await addAttendance(page, eventLabel, member.email, member.last, "Watchtower");

    // Compose, and preview: the group by name, and the email as its first member reads it.
    await page.goto("/tools/messages/new");
    await page.getByLabel("Who it is for").selectOption({ label: "Holding a paid place for the event" });
    await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
    await page.getByLabel("Subject").fill(`Parking at the muster, {first name} ${tag}`);
    await page
      .getByLabel("Message")
      .fill("Howdy {first name},\n\nPark in the **lower field** by the gate.\n\n- Bring a lantern\n- Bring boots");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview).toContainText("2 members will receive it.");
    await expect(preview).toContainText(`Hattie Parker${tag}`);
    await expect(preview).toContainText(`Silas Parker${tag}`);
    await expect(preview.locator("strong", { hasText: "lower field" })).toBeVisible();
    await expectAccessible(page);

    // A test to the manager's own address: nobody else receives it.
    await page.getByRole("button", { name: "Send a test to me" }).click();
    await expect(page.getByText(/^A test copy is on its way to manager-desktop@e2e\.test\.$/)).toBeVisible();
    const test = await smtp.waitForMessage(
      (mail) => mail.subject === `[Test] Parking at the muster, Ada ${tag}`,
      20_000,
    );
    expect(recipients(test)).toBe("manager-desktop@e2e.test");

    await page.getByRole("button", { name: "Send to 2 members" }).click();
    await expect(page.getByText("Sent to 2 members; 0 left out by their choices.")).toBeVisible();
    const record = page.url();

    // Exactly one email each, with their own first name and the one-click unsubscribe headers.
    const subjectFor = (first: string) => `Parking at the muster, ${first} ${tag}`;
    const mailTo = async (member: { first: string; email: string }) => {
      const mail = await smtp.waitForMessage(
        (m) => recipients(m).includes(member.email) && m.subject === subjectFor(member.first),
        30_000,
      );
      expect(mail.text).toContain(`Howdy ${member.first},`);
      expect(headerOf(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      return mail;
    };
    const [toHattie] = await Promise.all([mailTo(hattie), mailTo(silas)]);
    const copiesOf = (member: { email: string }) =>
      smtp.messages.filter((m) => recipients(m).includes(member.email) && m.subject?.endsWith(tag));
    expect(copiesOf(hattie)).toHaveLength(1);
    expect(copiesOf(silas)).toHaveLength(1);

    // Hattie reads it on the site too, under Notices.
    const hattiePage = await (await browser.newContext({ baseURL })).newPage();
    await signInByPost(hattiePage, hattie.email, hattie.password);
    await hattiePage.goto("/notices");
    await expect(hattiePage.getByRole("heading", { name: subjectFor("Hattie") })).toBeVisible();
    await expect(hattiePage.getByText("Howdy Hattie,")).toBeVisible();
    await expectAccessible(hattiePage);

    // Silas unsubscribes in one POST to the header's address, as a mail program does: no cookie, no page.
    const silasMail = smtp.messages.find((m) => recipients(m).includes(silas.email) && m.subject?.endsWith(tag))!;
    const address = /<([^>]+)>/.exec(String(headerOf(silasMail, "List-Unsubscribe")))![1]!;
    const mailProgram = await playwrightRequest.newContext();
    const unsubscribed = await mailProgram.post(address, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: "List-Unsubscribe=One-Click",
    });
    expect(unsubscribed.status()).toBe(200);
    await mailProgram.dispose();
    expect(headerOf(toHattie, "List-Unsubscribe")).not.toBe(headerOf(silasMail, "List-Unsubscribe"));

    // The next message to the group leaves Silas out, and the record says why.
    await page.goto("/tools/messages/new");
    await page.getByLabel("Who it is for").selectOption({ label: "Holding a paid place for the event" });
    await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
    await page.getByLabel("Subject").fill(`Supper at the muster ${tag}`);
    await page.getByLabel("Message").fill("Supper is at six, {first name}.");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("region", { name: "Preview" })).toContainText(
      "1 member will receive it; 1 left out by their choices.",
    );
    await page.getByRole("button", { name: "Send to 1 member" }).click();
    await expect(page.getByText("Sent to 1 member; 1 left out by their choices.")).toBeVisible();
    const silasRow = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Silas Parker${tag}` }) });
    await expect(silasRow).toContainText("Left out");
    await expect(silasRow).toContainText("Chose not to receive event messages");
    await smtp.waitForMessage(
      (m) => recipients(m).includes(hattie.email) && m.subject === `Supper at the muster ${tag}`,
      30_000,
    );
    expect(
      smtp.messages.filter((m) => recipients(m).includes(silas.email) && m.subject?.includes("Supper")),
    ).toHaveLength(0);

    // The first message's record: both copies sent.
    await page.goto(record);
    for (const member of [hattie, silas]) {
      const row = page
        .getByRole("listitem")
        .filter({ has: page.getByRole("link", { name: `${member.first} Parker${tag}` }) });
      await expect(row).toContainText("Sent");
    }
  } finally {
    await smtp.close();
  }
});
