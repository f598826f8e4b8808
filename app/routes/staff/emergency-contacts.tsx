import { CallLink } from "~/components/CallLink";
import { pageParam } from "~/lib/paging";
import { Fragment } from "react";
import type { Route } from "./+types/emergency-contacts";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Pager, ResultCount, SearchForm } from "~/components/ListControls";
import { requireAccess } from "~/web/guards.server";
import { listEmergencyContacts, MEMBER_LIST_PAGE_SIZE } from "~/features/members/members.server";
import { searchTermOf } from "~/web/forms/kernel";

export async function loader({ request, context }: Route.LoaderArgs) {
  const manager = requireAccess(context, request, "manager");
  const url = new URL(request.url);
  const search = searchTermOf(url);
  const page = pageParam(request.url);
  const found = await listEmergencyContacts(manager, { search, page });
  return { ...found, search, page, lastPage: Math.max(0, Math.ceil(found.total / MEMBER_LIST_PAGE_SIZE) - 1) };
}

type Member = Route.ComponentProps["loaderData"]["rows"][number];

/**
 * One member's card: their name first, then who to call with a button that dials on a phone.
 * This page is opened in an emergency, often on a phone, so nothing is squeezed into columns
 * and no word is broken: an email may wrap only after its "@" or at a dot.
 */
function ContactCard({ member }: { member: Member }) {
  const name = `${member.firstName} ${member.lastName}`;
  const contact = member.emergencyContact;
  return (
    <li className="flex flex-col gap-3 rounded-md border border-timber/70 p-4" aria-labelledby={`member-${member.id}`}>
      <div>
        <h2 id={`member-${member.id}`} className="font-serif text-xl font-bold text-parchment">
          {name}
        </h2>
        <a href={`mailto:${member.email}`} className="text-sm text-dust [overflow-wrap:break-word]">
          {breakableEmail(member.email)}
        </a>
      </div>
      {contact ? (
        <div className="flex flex-col gap-2">
          <p>
            <span className="block text-sm text-dust">Emergency contact</span>
            <span className="text-lg font-bold">{contact.name}</span>
          </p>
          <CallLink
            name={contact.name}
            phone={contact.phone}
            className="btn btn-primary self-start font-serif text-lg tabular-nums"
            iconClassName="size-5"
          />
        </div>
      ) : (
        <p className="font-bold text-blood">No emergency contact</p>
      )}
    </li>
  );
}

/** The address with a line-break opportunity after the "@" and before each dot, never inside a word. */
function breakableEmail(email: string) {
  const at = email.lastIndexOf("@");
  const parts = [email.slice(0, at + 1), ...email.slice(at + 1).split(/(?=\.)/)];
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

export default function EmergencyContacts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Emergency Contacts</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-4 max-sm:px-4">
        <p className="text-sm text-dust">For emergencies at events only. Each visit to this page is recorded.</p>
        <SearchForm search={loaderData.search} label="Search members by name or email" />
        <ResultCount total={loaderData.total} noun="member" search={loaderData.search} />
        <ul className="grid gap-4 md:grid-cols-2">
          {loaderData.rows.map((member) => (
            <ContactCard key={member.id} member={member} />
          ))}
        </ul>
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Emergency Contacts · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Emergency Contacts", "Failed to load user data");
