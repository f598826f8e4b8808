import type { Route } from "./+types/emergency-contacts";
import { Pager, ResultCount, SearchForm } from "~/components/tools/ListControls";
import { Alert } from "~/components/ui/Alert";
import { requireAccess } from "~/server/guards.server";
import { logger } from "~/server/logger.server";
import { listEmergencyContacts, MEMBER_LIST_PAGE_SIZE } from "~/server/members.server";
import { searchTermOf } from "~/forms/kernel";

export async function loader({ request, context }: Route.LoaderArgs) {
  const manager = requireAccess(context, request, "manager");
  const url = new URL(request.url);
  const search = searchTermOf(url);
  const page = Math.max(0, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "0", 10) || 0));
  try {
    const found = await listEmergencyContacts(manager, { search, page });
    return { ...found, search, page, lastPage: Math.max(0, Math.ceil(found.total / MEMBER_LIST_PAGE_SIZE) - 1), failed: false };
  } catch (error) {
    logger.error({ err: error }, "loading emergency contacts failed");
    return { rows: [], total: 0, search, page, lastPage: 0, failed: true };
  }
}

export default function EmergencyContacts({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Emergency Contacts</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-4">
        <p className="text-sm text-dust">For emergencies at events only. Each visit to this page is recorded.</p>
        {loaderData.failed ? (
          <Alert kind="error">Failed to load user data</Alert>
        ) : (
          <>
            <SearchForm search={loaderData.search} label="Search members by name or email" />
            <ResultCount total={loaderData.total} noun="member" search={loaderData.search} />
            <table className="w-full border-collapse text-left">
              <thead>
                <tr className="border-b border-timber text-dust">
                  <th scope="col" className="py-2 pr-3">Member</th>
                  <th scope="col" className="py-2 pr-3">Contact</th>
                  <th scope="col" className="py-2">Phone</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.rows.map((member) => (
                  <tr key={member.id} className="border-b border-timber/40 align-top">
                    <th scope="row" className="py-2 pr-3 font-normal">
                      <span className="font-bold">{`${member.firstName} ${member.lastName}`}</span>
                      <span className="block text-sm break-all text-dust">{member.email}</span>
                    </th>
                    {member.emergencyContact ? (
                      <>
                        <td className="py-2 pr-3">{member.emergencyContact.name}</td>
                        <td className="py-2 whitespace-nowrap">
                          <a href={`tel:${member.emergencyContact.phone.replace(/\s/g, "")}`}>{member.emergencyContact.phone}</a>
                        </td>
                      </>
                    ) : (
                      <td colSpan={2} className="py-2 font-bold text-blood">
                        No emergency contact
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
          </>
        )}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Emergency Contacts · Hopewell" }];
