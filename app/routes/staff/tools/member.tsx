import { data, isRouteErrorResponse, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/member";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SavedNotice } from "~/components/SavedNotice";
import {
  AccountPanel,
  SecondFactorsPanel,
  SessionsPanel,
  SignInMethodsPanel,
} from "~/features/member-admin/member/AccessPanels";
import { DeletePanel, DetailsPanel, RolePanel, SuspensionPanel } from "~/features/member-admin/member/ChangePanels";
import { PasswordLinkPanel } from "~/features/member-admin/member/PasswordLinkPanel";
import { MemberConfirmPanel, type MemberConfirmation } from "~/features/member-admin/MemberConfirm";
import { Alert } from "~/components/ui/Alert";
import { checkForm, readForm, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import {
  MEMBER_ADMIN_MESSAGES,
  MemberDetailsForm,
  memberIntentOf,
  RoleForm,
  SuspendForm,
} from "~/features/member-admin/member-admin.form";
import { PASSKEY_ID } from "~/features/passkeys/passkeys.form";
import { ROLE_LABELS } from "~/game/roles";
import { isMemberId } from "~/lib/ids";
import { countOf } from "~/lib/plural";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import {
  memberAccount,
  restoreMember,
  suspendMember,
  updateMemberDetails,
  type MemberAccount,
} from "~/features/member-admin/member-admin.server";
import {
  endMemberSessions,
  removeAuthenticatorApp,
  removeMemberPasskey,
  removeMemberPhone,
} from "~/features/member-admin/member-sign-in.server";
import { handOverPasswordLink, resendInvitation } from "~/features/member-admin/invitations.server";
import { changeRole } from "~/identity/roles.server";
import { smsEnabled } from "~/platform/sms/sms.server";

/** The member named by the address, or the page's 404: an id that cannot be one, or nobody's. */
async function memberOf(id: string | undefined): Promise<MemberAccount> {
  const member = isMemberId(id) ? await memberAccount(id) : undefined;
  if (!member) throw data(MEMBER_ADMIN_MESSAGES.notFound, { status: 404 });
  return member;
}

const INVITE_NOTICES = {
  sent: { kind: "success", text: "Invitation sent. The member chooses their password from the link in it." },
  "not-sent": {
    kind: "error",
    text: "The account is made, but the invitation could not be sent. Send it again below.",
  },
} as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "manager");
  const member = await memberOf(params.id);
  const notice = new URL(request.url).searchParams.get("invited");
  const invited: keyof typeof INVITE_NOTICES | null = notice === "sent" || notice === "not-sent" ? notice : null;
  return { member, self: user.id === member.id, invited, sms: smsEnabled() };
}

type ActionData = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  values?: FormValues;
  confirm?: MemberConfirmation;
  link?: string;
  at?: number;
};

const fullName = (member: { firstName: string; lastName: string }) => `${member.firstName} ${member.lastName}`;

/**
 * Every change happens only when the form says `confirm=yes` (the dialog adds it). Without it
 * the answer is a confirmation step naming the member and the change, and nothing is changed
 * or recorded until it is confirmed.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requireAccess(context, request, "manager");
  if (!isMemberId(params.id)) throw data(MEMBER_ADMIN_MESSAGES.notFound, { status: 404 });
  const id = params.id;
  const fields = await readForm(request);
  const intent = memberIntentOf(fields.intent);
  if (!intent) return data<ActionData>({ message: MEMBER_ADMIN_MESSAGES.chooseAction }, { status: 400 });
  const confirmed = fields.confirm === "yes";
  const gone = () => data<ActionData>({ message: MEMBER_ADMIN_MESSAGES.notFound }, { status: 404 });
  /** The confirmation step, for a member who still exists. */
  const ask = async (make: (member: MemberAccount) => MemberConfirmation | ActionData) => {
    const member = await memberAccount(id);
    if (!member) return gone();
    const step = make(member);
    return data<ActionData>("question" in step ? { confirm: step } : step);
  };

  return failSafely<ActionData>(
    "changing a member's account",
    { message: MEMBER_ADMIN_MESSAGES.failed, values: fields },
    async () => {
      switch (intent) {
        case "details": {
          const form = checkForm(MemberDetailsForm, fields);
          if (!form.ok) return data({ errors: form.errors, values: fields }, { status: 400 });
          const { firstName, lastName, email } = form.data;
          if (!confirmed) {
            return ask((member) =>
              member.firstName === firstName && member.lastName === lastName && member.email.toLowerCase() === email
                ? { ok: "Nothing to change.", at: Date.now() }
                : {
                    question: `Save ${fullName(member)}'s details as ${firstName} ${lastName}, ${email}?${member.email.toLowerCase() === email ? "" : " They will sign in with the new email; their old address is told of the change."}`,
                    yes: "Yes, save",
                    fields: { intent, firstName, lastName, email },
                  },
            );
          }
          const outcome = await updateMemberDetails(actor, id, form.data);
          if (outcome === "not-found") return gone();
          if (outcome === "email-taken")
            return data({ errors: { email: MEMBER_ADMIN_MESSAGES.emailTaken }, values: fields }, { status: 409 });
          return data({ ok: outcome === "saved" ? "Details saved." : "Nothing to change.", at: Date.now() });
        }
        case "role": {
          const form = checkForm(RoleForm, fields);
          if (!form.ok) return data({ message: form.errors.role ?? "Please choose a role" }, { status: 400 });
          const { role } = form.data;
          if (!confirmed) {
            return ask((member) =>
              member.role === role
                ? { ok: `${fullName(member)} is already ${ROLE_LABELS[role]}.`, at: Date.now() }
                : {
                    question: `Change ${fullName(member)}'s role from ${ROLE_LABELS[member.role]} to ${ROLE_LABELS[role]}?`,
                    yes: `Yes, make them ${ROLE_LABELS[role]}`,
                    fields: { intent, role },
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
        case "suspend": {
          const form = checkForm(SuspendForm, fields);
          if (!form.ok) return data({ errors: form.errors, values: fields }, { status: 400 });
          const { reason } = form.data;
          if (actor.id === id) return data({ message: MEMBER_ADMIN_MESSAGES.notYourself }, { status: 409 });
          if (!confirmed) {
            return ask((member) => ({
              question: `Suspend ${fullName(member)}? They are signed out everywhere at once and cannot sign in by any way until the account is restored.`,
              yes: "Yes, suspend",
              fields: { intent, reason },
            }));
          }
          const result = await suspendMember(actor, id, reason);
          if (result.outcome === "not-found") return gone();
          if (result.outcome === "yourself")
            return data({ message: MEMBER_ADMIN_MESSAGES.notYourself }, { status: 409 });
          if (result.outcome === "last-manager")
            return data({ message: MEMBER_ADMIN_MESSAGES.lastManager }, { status: 409 });
          if (result.outcome === "already") return data({ ok: "The account was already suspended.", at: Date.now() });
          return data({ ok: `Account suspended. ${countOf(result.sessionsEnded, "session")} ended.`, at: Date.now() });
        }
        case "restore": {
          if (!confirmed)
            return ask((member) => ({
              question: `Restore ${fullName(member)}'s account? They can sign in again.`,
              yes: "Yes, restore",
              fields: { intent },
            }));
          const outcome = await restoreMember(actor, id);
          if (outcome === "not-found") return gone();
          return data({
            ok:
              outcome === "restored"
                ? "Account restored. The member can sign in again."
                : "The account was not suspended.",
            at: Date.now(),
          });
        }
        case "remove-authenticator": {
          if (!confirmed) {
            return ask((member) =>
              member.authenticatorApp
                ? {
                    question: `Remove ${fullName(member)}'s authenticator app and its backup codes? They sign in without it until they set up a new one.`,
                    yes: "Yes, remove it",
                    fields: { intent },
                  }
                : { message: MEMBER_ADMIN_MESSAGES.noAuthenticator },
            );
          }
          const outcome = await removeAuthenticatorApp(actor, id);
          if (outcome === "not-found") return gone();
          if (outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.noAuthenticator }, { status: 409 });
          return data({ ok: "Authenticator app removed.", at: Date.now() });
        }
        case "remove-phone": {
          if (!confirmed) {
            return ask((member) =>
              member.phone
                ? {
                    question: `Remove ${fullName(member)}'s phone (the number ending in ${member.phone.replace(/^[•\s]+/, "")}) from their second factors? No more sign-in codes are texted to it.${member.authenticatorApp ? "" : " It is their only second factor, so two-factor authentication goes off with it."}`,
                    yes: "Yes, remove it",
                    fields: { intent },
                  }
                : { message: MEMBER_ADMIN_MESSAGES.noPhone },
            );
          }
          const outcome = await removeMemberPhone(actor, id);
          if (outcome === "not-found") return gone();
          if (outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.noPhone }, { status: 409 });
          return data({ ok: "Phone removed.", at: Date.now() });
        }
        case "remove-passkey": {
          const passkeyId = fields.passkeyId ?? "";
          if (!PASSKEY_ID.test(passkeyId)) return data({ message: MEMBER_ADMIN_MESSAGES.passkeyGone }, { status: 404 });
          if (!confirmed) {
            return ask((member) => {
              const passkey = member.passkeys.find((p) => p.id === passkeyId);
              if (!passkey) return { message: MEMBER_ADMIN_MESSAGES.passkeyGone };
              return {
                question: `Remove the passkey “${passkey.name}” from ${fullName(member)}'s account? It will no longer sign anyone in.`,
                yes: "Yes, remove it",
                fields: { intent, passkeyId },
              };
            });
          }
          const result = await removeMemberPasskey(actor, id, passkeyId);
          if (result.outcome === "not-found") return gone();
          if (result.outcome === "none") return data({ message: MEMBER_ADMIN_MESSAGES.passkeyGone }, { status: 404 });
          return data({ ok: `Passkey “${result.name}” removed.`, at: Date.now() });
        }
        case "end-sessions": {
          if (!confirmed) {
            return ask((member) => ({
              question: `Sign ${fullName(member)} out on every device (${countOf(member.sessions, "session")})?${actor.id === id ? " This signs you out here too." : ""}`,
              yes: "Yes, end them",
              fields: { intent },
            }));
          }
          const result = await endMemberSessions(actor, id);
          if (result === "not-found") return gone();
          return data({ ok: `${countOf(result.ended, "session")} ended.`, at: Date.now() });
        }
        case "reset-link": {
          if (!confirmed) {
            return ask((member) => ({
              question: `Make a one-time link for ${fullName(member)} to choose a new password? It is shown to you once, here, to hand over yourself; it is not emailed.`,
              yes: "Yes, make the link",
              fields: { intent },
            }));
          }
          const result = await handOverPasswordLink(actor, id);
          if (result === "not-found") return gone();
          return data({ link: result.link, at: Date.now() });
        }
        case "resend-invite": {
          if (!confirmed)
            return ask((member) => ({
              question: `Send the invitation to ${fullName(member)} again, to ${member.email}? The link in the earlier invitation will stop working.`,
              yes: "Yes, send it",
              fields: { intent },
            }));
          const outcome = await resendInvitation(actor, id);
          if (outcome === "not-found") return gone();
          if (outcome === "not-sent") return data({ message: MEMBER_ADMIN_MESSAGES.inviteFailed }, { status: 500 });
          return data({
            ok: "Invitation sent again. The link in the earlier invitation no longer works.",
            at: Date.now(),
          });
        }
      }
    },
  );
}

export default function ToolsMember({ loaderData, actionData }: Route.ComponentProps) {
  const { member, self, invited, sms } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const name = fullName(member);
  const answer = { values: actionData?.values, errors: actionData?.errors };
  const invitation = invited ? INVITE_NOTICES[invited] : null;
  const panel = { member, name, busy };
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <p>
        <Link to="/tools?tab=roles">← All members</Link>
      </p>
      <div>
        <h1 className="text-4xl break-words">{name}</h1>
        <p className="break-all text-dust">{member.email}</p>
      </div>
      {invitation && !actionData ? <Alert kind={invitation.kind}>{invitation.text}</Alert> : null}
      {actionData?.ok ? <SavedNotice key={actionData.at} message={actionData.ok} /> : null}
      {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
      {actionData?.link ? <PasswordLinkPanel name={name} link={actionData.link} /> : null}
      {actionData?.confirm ? (
        <MemberConfirmPanel pending={actionData.confirm} busy={busy} />
      ) : (
        <>
          <AccountPanel member={member} />
          <SignInMethodsPanel {...panel} />
          <SecondFactorsPanel {...panel} sms={sms} />
          <SessionsPanel {...panel} self={self} />
          <DetailsPanel {...panel} {...answer} />
          <RolePanel {...panel} />
          <SuspensionPanel {...panel} {...answer} self={self} />
          <DeletePanel member={member} />
        </>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: loaded }) => [
  { title: `${loaded ? fullName(loaded.member) : "Member"} · Tools · Hopewell` },
];

const Failure = pageErrorBoundary("Member", MEMBER_ADMIN_MESSAGES.loadFailed);

/** An unknown or malformed member id: a 404 page that says so and leads back to the list. Anything else as every page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
        <title>Member not found · Hopewell</title>
        <h1 className="text-4xl">Member not found</h1>
        <Alert kind="error">{MEMBER_ADMIN_MESSAGES.notFound}</Alert>
        <p>
          <Link to="/tools?tab=roles">← All members</Link>
        </p>
      </div>
    );
  }
  return <Failure error={error} />;
}
