import { Link } from "~/components/Link";
import { Field, inputClass } from "~/components/ui/Field";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";
import { ROLE_LABELS, ROLES, type Role } from "~/game/roles";
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
          <Field
            label="First name"
            name="firstName"
            required
            maxLength={80}
            autoComplete="off"
            defaultValue={values?.firstName ?? member.firstName}
            error={errors?.firstName}
          />
          <Field
            label="Last name"
            name="lastName"
            required
            maxLength={80}
            autoComplete="off"
            defaultValue={values?.lastName ?? member.lastName}
            error={errors?.lastName}
          />
          <Field
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="off"
            defaultValue={values?.email ?? member.email}
            error={errors?.email}
            className="sm:col-span-2"
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
        <div className="flex flex-col gap-1">
          <label htmlFor="member-role" className="font-bold">
            Role
          </label>
          <select id="member-role" name="role" defaultValue={member.role} key={member.role} className={inputClass}>
            {ROLES.map((role: Role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
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
            question={`Suspend ${name}? They are signed out everywhere at once.`}
            label="Suspend the account"
            busy={busy}
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
      <p>
        <Link to={`/tools/members/${encodeURIComponent(member.id)}/delete`}>Delete account…</Link>
      </p>
    </Section>
  );
}
