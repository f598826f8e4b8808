import { ROLE_LABELS, type Role } from "~/game/roles";
import { Link } from "~/components/Link";
import { Pager, ResultCount, SearchForm } from "~/components/ListControls";

type Player = {
  id: string;
  firstName: string;
  lastName: string;
  characterName: string | null;
  faction: string | null;
  job: string | null;
  backstory: string | null;
};
type CastMember = { id: string; firstName: string; lastName: string; role: Role; characterName: string | null };
type Listing<T> = { rows: T[]; total: number; search: string; page: number; lastPage: number };

/** A member's name, leading a manager to the member's page (cast cannot open it, so theirs is text). */
function MemberName({ member, link }: { member: { id: string; firstName: string; lastName: string }; link: boolean }) {
  const name = `${member.firstName} ${member.lastName}`;
  return link ? (
    <Link to={`/tools/members/${member.id}`} className="font-bold">
      {name}
    </Link>
  ) : (
    <span className="font-bold">{name}</span>
  );
}

export function PlayerList({ list, linkMembers }: { list: Listing<Player>; linkMembers: boolean }) {
  return (
    <div className="flex flex-col gap-4">
      <SearchForm tab="players" search={list.search} label="Search players or characters" />
      <ResultCount total={list.total} noun="player" search={list.search} />
      <ul className="flex flex-col gap-3">
        {list.rows.map((player) => (
          <li key={player.id} className="rounded-md border border-timber/70 p-4">
            <p>
              <MemberName member={player} link={linkMembers} />
            </p>
            {player.characterName ? (
              <>
                <p className="text-brass">{`${player.characterName} · ${player.faction} · ${player.job}`}</p>
                <details className="mt-2">
                  <summary className="text-sm text-dust">Backstory</summary>
                  <p className="mt-2 whitespace-pre-wrap">{player.backstory}</p>
                </details>
              </>
            ) : (
              <p className="text-sm text-dust">No character yet</p>
            )}
          </li>
        ))}
      </ul>
      <Pager page={list.page} lastPage={list.lastPage} />
    </div>
  );
}

export function CastList({ list, linkMembers }: { list: Listing<CastMember>; linkMembers: boolean }) {
  return (
    <div className="flex flex-col gap-4">
      <SearchForm tab="cast" search={list.search} label="Search cast by name" />
      <ResultCount total={list.total} noun="member" search={list.search} />
      <ul className="flex flex-col divide-y divide-timber/60">
        {list.rows.map((member) => (
          <li key={member.id} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
            <MemberName member={member} link={linkMembers} />
            <span className="text-sm text-dust">{ROLE_LABELS[member.role]}</span>
          </li>
        ))}
      </ul>
      <Pager page={list.page} lastPage={list.lastPage} />
    </div>
  );
}
