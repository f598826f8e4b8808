import { Link } from "~/components/Link";
import { Field } from "~/components/ui/Field";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";
import { NameAndEmailFields, RoleSelect } from "../MemberFields";
import type { MemberAccount } from "~/features/member-admin/member-admin.server";
import { ActionForm, Section } from "./parts";

/** The changes a manager makes to the member's account: name and email, role, suspension, deletion. */

/** What the server answered to the last change: the values sent back, and what was wrong with them. */
type Answer = { values?: FormValues; errors?: FieldErrors };
type PanelProps = { member: MemberAccount; name: string; busy: boolean };

export function DetailsPanel({ member, name, busy, values, errors }: PanelProps & Answer) {
  return (
    <Section id="details" title="Name and email">
      {/* Keyed by the saved values, so the fields start again from them once a change is saved. */}
      <ActionForm
        key={`${member.firstName}|${member.lastName}|${member.email}`}
        intent="details"
        question={`Save the changes to ${name}'s name and email?`}
        label="Save details"
        busy={busy}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <NameAndEmailFields
            defaults={{
              firstName: values?.firstName ?? member.firstName,
              lastName: values?.lastName ?? member.lastName,
              email: values?.email ?? member.email,
            }}
            errors={errors}
          />
        </div>
      </ActionForm>
    </Section>
  );
}

export function RolePanel({ member, name, busy }: PanelProps) {
  return (
    <Section id="role" title="Role">
      <ActionForm intent="role" question={`Change ${name}'s role?`} label="Change role" busy={busy}>
        {/* Keyed by the saved role, so the list starts again from it once a change is saved. */}
        <RoleSelect key={member.role} id="member-role" defaultValue={member.role} />
      </ActionForm>
    </Section>
  );
}

/** `self`: a manager cannot suspend their own account. */
export function SuspensionPanel({ member, name, busy, self, values, errors }: PanelProps & Answer & { self: boolean }) {
  return (
    <Section id="suspension" title={member.suspended ? "Restore" : "Suspend"}>
      {member.suspended ? (
        <>
          <p>This account is suspended: the member cannot sign in by any way.</p>
          <ActionForm
            intent="restore"
            question={`Restore ${name}'s account? They can sign in again.`}
            label="Restore the account"
            busy={busy}
            primary
          />
        </>
      ) : self ? (
        <p className="text-dust">You cannot suspend your own account.</p>
      ) : (
        <>
          <p>
            A suspended member is signed out everywhere at once and cannot sign in by any way (password, emailed code,
            passkey or Discord) until restored.
          </p>
          <ActionForm
            intent="suspend"
            question={`Suspend ${name}? They are signed out everywhere at once and cannot sign in by any way until the account is restored.`}
            label="Suspend the account"
            busy={busy}
            danger
          >
            <Field
              label="Reason (for managers only)"
              name="reason"
              maxLength={300}
              defaultValue={values?.reason ?? ""}
              error={errors?.reason}
            />
          </ActionForm>
        </>
      )}
    </Section>
  );
}

export function DeletePanel({ member }: { member: MemberAccount }) {
  return (
    <Section id="delete" title="Delete account">
      <Link to={`/tools/members/${encodeURIComponent(member.id)}/delete`} className="btn btn-danger self-start">
        Delete account…
      </Link>
    </Section>
  );
}
