import { ROLE_LABELS, isRole } from "~/game/roles";
import type { AuditAction } from "~/platform/audit.server";
import { countOf } from "~/lib/plural";

/**
 * What managers do to a member's account (app/features/member-admin/member-admin.server.ts), as the audit
 * log records it: who (the actor), to whom (the subject), when, and these details. Never a
 * link, a token or a contact detail: an email change records that the email changed, not
 * the addresses.
 */
export const MEMBER_ADMIN_AUDIT_ACTIONS = {
  "member.invite": "invited",
  "member.invite_resend": "sent the invitation again to",
  "member.update": "updated the details of",
  "member.suspend": "suspended",
  "member.restore": "restored",
  "member.factor_remove": "removed a second factor of",
  "member.sessions_end": "ended the signed-in sessions of",
  "member.reset_link": "made a one-time password link to hand to",
} as const satisfies Record<Extract<AuditAction, `member.${string}`>, string>;

export type MemberAdminAuditAction = keyof typeof MEMBER_ADMIN_AUDIT_ACTIONS;

export function isMemberAdminAuditAction(action: string): action is MemberAdminAuditAction {
  return Object.hasOwn(MEMBER_ADMIN_AUDIT_ACTIONS, action);
}

/** The audit log's second line for one of these entries. */
export function memberAdminAuditDetail(
  action: MemberAdminAuditAction,
  details: Record<string, unknown> | null,
): string {
  if (!details) return "";
  switch (action) {
    case "member.invite":
      return typeof details.role === "string" && isRole(details.role) ? `as ${ROLE_LABELS[details.role]}` : "";
    case "member.update":
      return Array.isArray(details.changed) ? `changed ${details.changed.map(String).join(" and ")}` : "";
    case "member.suspend":
      return [
        details.reason ? `“${String(details.reason)}”` : "",
        details.sessionsEnded ? `${countOf(Number(details.sessionsEnded), "session")} ended` : "",
      ]
        .filter(Boolean)
        .join(", ");
    case "member.factor_remove":
      return details.factor === "passkey"
        ? `passkey “${String(details.name ?? "Unnamed passkey")}”`
        : "authenticator app";
    case "member.sessions_end":
      return countOf(Number(details.count ?? 0), "session");
    default:
      return "";
  }
}
