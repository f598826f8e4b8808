import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { ROLE_LABELS, ROLES, type Role } from "~/game/roles";
import { useConfirmedSubmit } from "./Confirm";
import { Pager, ResultCount, SearchForm } from "~/components/ListControls";

type Member = { id: string; firstName: string; lastName: string; email: string; role: Role; suspended?: boolean };
type Listing = { members: Member[]; total: number; search: string; page: number; lastPage: number };

export function RolesTab({ roles }: { roles: Listing }) {
  return (
    <div className="flex flex-col gap-4">
      <p>
        <Link to="/tools/members/invite" className="btn btn-secondary">
          Invite a member
        </Link>
      </p>
      <SearchForm tab="roles" search={roles.search} label="Search members by name or email" />
      <ResultCount total={roles.total} noun="member" search={roles.search} />
      <ul className="flex flex-col divide-y divide-timber/60">
        {roles.members.map((member) => (
          // Keyed by the role too: once a change is saved the row starts again from the new role.
          <RoleRow key={`${member.id}:${member.role}`} member={member} />
        ))}
      </ul>
      <Pager page={roles.page} lastPage={roles.lastPage} />
    </div>
  );
}

function RoleRow({ member }: { member: Member }) {
  const navigation = useNavigation();
  const confirmed = useConfirmedSubmit();
  // The dropdown shows the member's saved role unless a change is under way: a cancelled
  // dialog puts it back, so it never claims a role the member does not have.
  const [chosen, setChosen] = useState<Role>(member.role);
  const name = `${member.firstName} ${member.lastName}`;
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-bold">
          <Link to={`/tools/members/${encodeURIComponent(member.id)}`}>{name}</Link>
          {member.suspended ? <span className="ml-2 rounded bg-blood/20 px-2 py-0.5 text-sm">Suspended</span> : null}
        </p>
        <p className="text-sm break-all text-dust">{member.email}</p>
      </div>
      <Form
        method="post"
        className="flex items-center gap-2"
        onSubmit={confirmed(`Are you sure you want to change this user's role to ${chosen}?`, () =>
          setChosen(member.role),
        )}
      >
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="userId" value={member.id} />
        <label htmlFor={`role-${member.id}`} className="sr-only">
          Role of {name}
        </label>
        <select
          id={`role-${member.id}`}
          name="role"
          value={chosen}
          onChange={(event) => setChosen(event.currentTarget.value as Role)}
          className="rounded-md border border-timber bg-ink px-2 py-2"
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-secondary" disabled={navigation.state !== "idle"}>
          Set role<span className="sr-only"> for {name}</span>
        </button>
      </Form>
    </li>
  );
}
