// The actions of a manager's page for one member (routes/staff/tools/member.tsx), one function per
// intent: each checks its fields, asks to confirm, makes the change and words the answer.
import { data } from "react-router";
import { PASSKEY_ID } from "~/features/passkeys/passkeys.form";
import { ROLE_LABELS } from "~/game/roles";
import { countOf } from "~/lib/plural";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { checkForm, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import { handOverPasswordLink, resendInvitation } from "./invitations.server";
import {
  MEMBER_ADMIN_MESSAGES,
  MemberDetailsForm,
  memberIntentOf,
  RoleForm,
  SuspendForm,
  type MemberIntent,
} from "./member-admin.form";
import {
  memberAccount,
  restoreMember,
  suspendMember,
  updateMemberDetails,
  type Actor,
  type MemberAccount,
} from "./member-admin.server";
import {
  endMemberSessions,
  removeAuthenticatorApp,
  removeMemberPasskey,
  removeMemberPhone,
} from "./member-sign-in.server";
import type { MemberConfirmation } from "./MemberConfirm";
import { changeRole } from "~/identity/roles.server";

/** What the member page shows after an action. */
export type MemberActionData = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  values?: FormValues;
  confirm?: MemberConfirmation;
  link?: string;
  at?: number;
};

type Answer = Promise<ActionAnswer<MemberActionData>>;

/** One posted action on one member's account; `confirmed` when the form says `confirm=yes`. */
type MemberChange = { actor: Actor; id: string; fields: FormValues; confirmed: boolean };

const fullName = (member: { firstName: string; lastName: string }) => `${member.firstName} ${member.lastName}`;

const gone = () => data<MemberActionData>({ message: MEMBER_ADMIN_MESSAGES.notFound }, { status: 404 });

/** The confirmation step (or an answer instead of one), for a member who still exists. */
async function ask(id: string, make: (member: MemberAccount) => MemberConfirmation | MemberActionData): Answer {
  const member = await memberAccount(id);
  if (!member) return gone();
  const step = make(member);
  return data<MemberActionData>("question" in step ? { confirm: step } : step);
}

async function changeDetails({ actor, id, fields, confirmed }: MemberChange): Answer {
  const form = checkForm(MemberDetailsForm, fields);
  if (!form.ok) return data({ errors: form.errors, values: fields }, { status: 400 });
  const { firstName, lastName, email } = form.data;
  if (!confirmed) {
    return ask(id, (member) =>
      member.firstName === firstName && member.lastName === lastName && member.email.toLowerCase() === email
        ? { ok: "Nothing to change.", at: Date.now() }
        : {
            question: `Save ${fullName(member)}'s details as ${firstName} ${lastName}, ${email}?${member.email.toLowerCase() === email ? "" : " They will sign in with the new email; their old address is told of the change."}`,
            yes: "Yes, save",
            fields: { intent: "details", firstName, lastName, email },
          },
    );
  }
  const outcome = await updateMemberDetails(actor, id, form.data);
  if (outcome === "not-found") return gone();
  if (outcome === "email-taken")
    return data({ errors: { email: MEMBER_ADMIN_MESSAGES.emailTaken }, values: fields }, { status: 409 });
  return data({ ok: outcome === "saved" ? "Details saved." : "Nothing to change.", at: Date.now() });
}

async function changeMemberRole({ actor, id, fields, confirmed }: MemberChange): Answer {
  const form = checkForm(RoleForm, fields);
  if (!form.ok) return data({ message: form.errors.role ?? "Please choose a role" }, { status: 400 });
  const { role } = form.data;
  if (!confirmed) {
    return ask(id, (member) =>
      member.role === role
        ? { ok: `${fullName(member)} is already ${ROLE_LABELS[role]}.`, at: Date.now() }
        : {
            question: `Change ${fullName(member)}'s role from ${ROLE_LABELS[member.role]} to ${ROLE_LABELS[role]}?`,
            yes: `Yes, make them ${ROLE_LABELS[role]}`,
            fields: { intent: "role", role },
          },
    );
  }
  const outcome = await changeRole(actor, { id }, role);
  if (outcome === "not-found") return gone();
  if (outcome === "last-manager")
    return data(
      { message: "There must always be at least one manager. Make someone else a manager first." },
      { status: 409 },
    );
  return data({
    ok: outcome === "changed" ? `Role changed to ${ROLE_LABELS[role]}.` : `Already ${ROLE_LABELS[role]}.`,
    at: Date.now(),
  });
}

async function suspend({ actor, id, fields, confirmed }: MemberChange): Answer {
  const form = checkForm(SuspendForm, fields);
  if (!form.ok) return data({ errors: form.errors, values: fields }, { status: 400 });
  const { reason } = form.data;
  if (actor.id === id) return data({ message: MEMBER_ADMIN_MESSAGES.notYourself }, { status: 409 });
  if (!confirmed) {
    return ask(id, (member) => ({
      question: `Suspend ${fullName(member)}? They are signed out everywhere at once and cannot sign in by any way until the account is restored.`,
      yes: "Yes, suspend",
      danger: true,
      fields: { intent: "suspend", reason },
    }));
  }
  const result = await suspendMember(actor, id, reason);
  if (result.outcome === "not-found") return gone();
  if (result.outcome === "yourself") return data({ message: MEMBER_ADMIN_MESSAGES.notYourself }, { status: 409 });
  if (result.outcome === "last-manager") return data({ message: MEMBER_ADMIN_MESSAGES.lastManager }, { status: 409 });
  if (result.outcome === "already") return data({ ok: "The account was already suspended.", at: Date.now() });
  return data({ ok: `Account suspended. ${countOf(result.sessionsEnded, "session")} ended.`, at: Date.now() });
}

async function restore({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed)
    return ask(id, (member) => ({
      question: `Restore ${fullName(member)}'s account? They can sign in again.`,
      yes: "Yes, restore",
      fields: { intent: "restore" },
    }));
  const outcome = await restoreMember(actor, id);
  if (outcome === "not-found") return gone();
  return data({
    ok: outcome === "restored" ? "Account restored. The member can sign in again." : "The account was not suspended.",
    at: Date.now(),
  });
}

async function removeAuthenticator({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed) {
    return ask(id, (member) =>
      member.authenticatorApp
        ? {
            question: `Remove ${fullName(member)}'s authenticator app and its backup codes? They sign in without it until they set up a new one.`,
            yes: "Yes, remove it",
            fields: { intent: "remove-authenticator" },
          }
        : { message: MEMBER_ADMIN_MESSAGES.noAuthenticator },
    );
  }
  const outcome = await removeAuthenticatorApp(actor, id);
  if (outcome === "not-found") return gone();
  if (outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.noAuthenticator }, { status: 409 });
  return data({ ok: "Authenticator app removed.", at: Date.now() });
}

async function removePhone({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed) {
    return ask(id, (member) =>
      member.phone
        ? {
            question: `Remove ${fullName(member)}'s phone (the number ending in ${member.phone.replace(/^[•\s]+/, "")}) from their second factors? No more sign-in codes are texted to it.${member.authenticatorApp ? "" : " It is their only second factor, so two-factor authentication goes off with it."}`,
            yes: "Yes, remove it",
            fields: { intent: "remove-phone" },
          }
        : { message: MEMBER_ADMIN_MESSAGES.noPhone },
    );
  }
  const outcome = await removeMemberPhone(actor, id);
  if (outcome === "not-found") return gone();
  if (outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.noPhone }, { status: 409 });
  return data({ ok: "Phone removed.", at: Date.now() });
}

async function removePasskey({ actor, id, fields, confirmed }: MemberChange): Answer {
  const passkeyId = fields.passkeyId ?? "";
  if (!PASSKEY_ID.test(passkeyId)) return data({ message: MEMBER_ADMIN_MESSAGES.passkeyGone }, { status: 404 });
  if (!confirmed) {
    return ask(id, (member) => {
      const passkey = member.passkeys.find((p) => p.id === passkeyId);
      if (!passkey) return { message: MEMBER_ADMIN_MESSAGES.passkeyGone };
      return {
        question: `Remove the passkey “${passkey.name}” from ${fullName(member)}'s account? It will no longer sign anyone in.`,
        yes: "Yes, remove it",
        fields: { intent: "remove-passkey", passkeyId },
      };
    });
  }
  const result = await removeMemberPasskey(actor, id, passkeyId);
  if (result.outcome === "not-found") return gone();
  if (result.outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.passkeyGone }, { status: 404 });
  return data({ ok: `Passkey “${result.name}” removed.`, at: Date.now() });
}

async function endSessions({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed) {
    return ask(id, (member) => ({
      question: `Sign ${fullName(member)} out on every device (${countOf(member.sessions, "session")})?${actor.id === id ? " This signs you out here too." : ""}`,
      yes: "Yes, end them",
      danger: true,
      fields: { intent: "end-sessions" },
    }));
  }
  const result = await endMemberSessions(actor, id);
  if (result === "not-found") return gone();
  return data({ ok: `${countOf(result.ended, "session")} ended.`, at: Date.now() });
}

async function makePasswordLink({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed) {
    return ask(id, (member) => ({
      question: `Make a one-time link for ${fullName(member)} to choose a new password? It is shown to you once, here, to hand over yourself; it is not emailed.`,
      yes: "Yes, make the link",
      fields: { intent: "reset-link" },
    }));
  }
  const result = await handOverPasswordLink(actor, id);
  if (result === "not-found") return gone();
  return data({ link: result.link, at: Date.now() });
}

async function sendInvitationAgain({ actor, id, confirmed }: MemberChange): Answer {
  if (!confirmed)
    return ask(id, (member) => ({
      question: `Send the invitation to ${fullName(member)} again, to ${member.email}? The link in the earlier invitation will stop working.`,
      yes: "Yes, send it",
      fields: { intent: "resend-invite" },
    }));
  const outcome = await resendInvitation(actor, id);
  if (outcome === "not-found") return gone();
  if (outcome === "not-sent") return data({ message: MEMBER_ADMIN_MESSAGES.inviteFailed }, { status: 500 });
  return data({
    ok: "Invitation sent again. The link in the earlier invitation no longer works.",
    at: Date.now(),
  });
}

const INTENTS = {
  details: changeDetails,
  role: changeMemberRole,
  suspend,
  restore,
  "remove-authenticator": removeAuthenticator,
  "remove-phone": removePhone,
  "remove-passkey": removePasskey,
  "end-sessions": endSessions,
  "reset-link": makePasswordLink,
  "resend-invite": sendInvitationAgain,
} satisfies Record<MemberIntent, (change: MemberChange) => Answer>;

/**
 * The member page's answer to a posted form (already read), for the member `id`. Every change
 * happens only when the form says `confirm=yes` (the dialog adds it). Without it the answer is a
 * confirmation step naming the member and the change, and nothing is changed or recorded until
 * it is confirmed.
 */
export async function answerMemberForm(actor: Actor, id: string, fields: FormValues): Answer {
  const intent = memberIntentOf(fields.intent);
  if (!intent) return data<MemberActionData>({ message: MEMBER_ADMIN_MESSAGES.chooseAction }, { status: 400 });
  const change = { actor, id, fields, confirmed: fields.confirm === "yes" };
  return failSafely<MemberActionData>(
    "changing a member's account",
    { message: MEMBER_ADMIN_MESSAGES.failed, values: fields },
    () => INTENTS[intent](change),
  );
}
