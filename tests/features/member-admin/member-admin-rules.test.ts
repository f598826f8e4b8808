import { describe, expect, it } from "vitest";
import { InviteForm } from "~/features/member-admin/member-admin.form";
import { isMemberId } from "~/lib/ids";
import { ACCOUNT_SUSPENDED_MESSAGE } from "~/identity/suspension.server";
import { DISCORD_NOTICES } from "~/features/discord/discord-sign-in";
import { memberAdminAuditDetail } from "~/features/member-admin/member-admin-audit";

describe("managers' work on members' accounts", () => {
  it("says the same to a suspended member on every way in, Discord too", () => {
    expect(ACCOUNT_SUSPENDED_MESSAGE).toBe("This account is suspended. Contact the club's managers.");
    expect(DISCORD_NOTICES.suspended).toBe(ACCOUNT_SUSPENDED_MESSAGE);
  });

  it("takes the auth library's ids and imported UUIDs as member ids, and nothing else", () => {
    for (const id of ["Wq3mX9aZ0bC1dE2fG3hI4jK5lM6nO7pQ", "00000000-0000-4000-8000-000000000000"])
      expect(isMemberId(id), id).toBe(true);
    for (const id of ["", "a b", "x.y", "a/b", "a\u0000", "a".repeat(101), undefined])
      expect(isMemberId(id), String(id)).toBe(false);
  });

  it("invites as an applicant unless another role is chosen, with the email in lower case", () => {
    const parsed = InviteForm.parse({ firstName: " Ada ", lastName: "Lowe", email: "Ada@Example.COM" });
    expect(parsed).toEqual({ firstName: "Ada", lastName: "Lowe", email: "ada@example.com", role: "applicant" });
    expect(
      InviteForm.safeParse({ firstName: "Ada", lastName: "Lowe", email: "ada@example.com", role: "sheriff" }).success,
    ).toBe(false);
  });

  it("describes each audit entry without links or addresses", () => {
    expect(memberAdminAuditDetail("member.invite", { role: "cast" })).toBe("as Cast");
    expect(memberAdminAuditDetail("member.update", { changed: ["name", "email"] })).toBe("changed name and email");
    expect(memberAdminAuditDetail("member.suspend", { reason: "Unpaid dues", sessionsEnded: 2 })).toBe(
      "“Unpaid dues”, 2 sessions ended",
    );
    expect(memberAdminAuditDetail("member.factor_remove", { factor: "passkey", name: "Blue key" })).toBe(
      "passkey “Blue key”",
    );
    expect(memberAdminAuditDetail("member.factor_remove", { factor: "authenticator" })).toBe("authenticator app");
    expect(memberAdminAuditDetail("member.sessions_end", { count: 1 })).toBe("1 session");
    expect(memberAdminAuditDetail("member.reset_link", null)).toBe("");
  });
});
