import { count, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { database, type Database, type Transaction } from "./db/client.server";
import { auditLog, profiles } from "./db/schema";

/** Every action the audit log records; the member-admin page words its own (features/member-admin/member-admin-audit.ts). */
export type AuditAction =
  | "member.invite"
  | "member.invite_resend"
  | "member.update"
  | "member.suspend"
  | "member.restore"
  | "member.factor_remove"
  | "member.sessions_end"
  | "member.reset_link"
  | "role.change"
  | "application.decide"
  | "attendance.add"
  | "attendance.remove_unpaid"
  | "attendance.record_payment"
  | "emergency_contacts.view"
  | "outbox.retry"
  | "outbox.discard"
  | "first_manager.create"
  | "import.run"
  | "account.delete"
  | "costume.approve"
  | "costume.request_changes"
  | "letter.release"
  | "letter.answer"
  | "queue.take"
  | "queue.hand_back"
  | "queue.set_status"
  | "queue.reply"
  | "order.hand_out"
  | "order.undo_hand_out"
  | "ticket.paid"
  | "ticket.refunded"
  | "ticket.check"
  | "ticket.notice_dealt_with"
  | "club_facts.save"
  | "message.send"
  | "message.test"
  | "message.choices";

/**
 * Records who did what to whom, in the caller's transaction. Never put secrets or contact
 * details in `details`. An operator's tool (no account) leaves `actorId` empty and names
 * itself in `details.operator`.
 */
export async function audit(
  tx: Database | Transaction,
  entry: { actorId: string | null; action: AuditAction; subjectId?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? null,
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** The audit log, newest first, with the names of who acted and on whom. */
export async function listAudit(page = 0) {
  const db = await database();
  const actor = alias(profiles, "actor");
  const subject = alias(profiles, "subject");
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        details: auditLog.details,
        createdAt: auditLog.createdAt,
        actorName: sql<string | null>`${actor.firstName} || ' ' || ${actor.lastName}`,
        subjectName: sql<string | null>`${subject.firstName} || ' ' || ${subject.lastName}`,
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .leftJoin(subject, eq(subject.id, auditLog.subjectId))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset(page * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog),
  ]);
  return { rows, total: total?.n ?? 0 };
}
