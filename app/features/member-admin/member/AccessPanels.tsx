import { formatClubTime } from "~/lib/dates";
import { ROLE_LABELS } from "~/game/roles";
import { countOf } from "~/lib/plural";
import type { MemberAccount } from "~/features/member-admin/member-admin.server";
import { ActionForm, ConfirmedButton, Facts, Section } from "./parts";

/** The member's account, how they sign in, and where: each with what a manager may do about it. */

type PanelProps = { member: MemberAccount; name: string; busy: boolean };

export function AccountPanel({ member }: { member: MemberAccount }) {
  return (
    <Section id="account" title="Account">
      <Facts
        rows={[
          ["Email", <span className="break-all">{member.email}</span>],
          ["Role", ROLE_LABELS[member.role]],
          ["Created", formatClubTime(member.createdAt)],
          [
            "Status",
            member.suspended ? `Suspended${member.suspendReason ? `: ${member.suspendReason}` : ""}` : "Active",
          ],
        ]}
      />
    </Section>
  );
}

export function SignInMethodsPanel({ member, name, busy }: PanelProps) {
  return (
    <Section id="sign-in" title="Sign-in methods">
      <Facts
        rows={[
          ["Password", member.signInMethods.password ? "Set" : "Not set yet"],
          ["Discord", member.signInMethods.discord ? "Linked" : "Not linked"],
        ]}
      />
      <ActionForm
        intent="reset-link"
        question={`Make a one-time link for ${name} to choose a new password? It is shown to you once, to hand over yourself.`}
        label="Make a one-time password link"
        busy={busy}
      />
      {!member.signInMethods.password ? (
        <ActionForm
          intent="resend-invite"
          question={`Send the invitation to ${name} again, to ${member.email}? The link in the earlier invitation will stop working.`}
          label="Send the invitation again"
          busy={busy}
        />
      ) : null}
    </Section>
  );
}

/** `sms`: text messages are configured, so their row shows even for a member without a phone. */
export function SecondFactorsPanel({ member, name, busy, sms }: PanelProps & { sms: boolean }) {
  return (
    <Section id="factors" title="Second factors">
      <Facts
        rows={[
          ["Authenticator app", member.authenticatorApp ? "On" : "Off"],
          ...(sms || member.phone
            ? [
                [
                  "Text messages",
                  member.phone ? `To the number ending in ${member.phone.replace(/^[•\s]+/, "")}` : "No phone",
                ] as [string, string],
              ]
            : []),
        ]}
      />
      {member.authenticatorApp ? (
        <ActionForm
          intent="remove-authenticator"
          question={`Remove ${name}'s authenticator app and its backup codes?`}
          label="Remove the authenticator app"
          busy={busy}
        />
      ) : null}
      {member.phone ? (
        <ActionForm
          intent="remove-phone"
          question={`Remove ${name}'s phone for text messages?`}
          label="Remove the phone"
          busy={busy}
        />
      ) : null}
      <h3 className="text-xl">Passkeys</h3>
      {member.passkeys.length === 0 ? (
        <p className="text-dust">No passkeys.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-timber/60">
          {member.passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-bold break-words">{passkey.name}</p>
                {passkey.addedAt ? <p className="text-sm text-dust">Added {formatClubTime(passkey.addedAt)}</p> : null}
              </div>
              <ConfirmedButton
                intent="remove-passkey"
                extra={{ passkeyId: passkey.id }}
                question={`Remove the passkey “${passkey.name}” from ${name}'s account?`}
                label="Remove"
                hidden={` passkey ${passkey.name}`}
                busy={busy}
              />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** `self`: the manager is looking at their own account, so ending the sessions signs them out too. */
export function SessionsPanel({ member, name, busy, self }: PanelProps & { self: boolean }) {
  return (
    <Section id="sessions" title="Signed-in sessions">
      <p>{member.sessions === 0 ? "Not signed in anywhere." : `Signed in on ${countOf(member.sessions, "device")}.`}</p>
      <ActionForm
        intent="end-sessions"
        question={`Sign ${name} out on every device (${countOf(member.sessions, "session")})?${self ? " This signs you out here too." : ""}`}
        label="End all sessions"
        busy={busy}
        danger
      />
    </Section>
  );
}
