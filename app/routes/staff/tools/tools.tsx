import { data, useNavigation } from "react-router";
import { pageParam } from "~/lib/paging";
import { isMemberId, isUuid } from "~/lib/ids";
import type { Route } from "./+types/tools";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SavedNotice } from "~/components/SavedNotice";
import { ApplicationsTab } from "~/features/member-admin/ApplicationsTab";
import { AuditTab } from "~/features/member-admin/AuditTab";
import { ConfirmPanel, type PendingConfirmation } from "~/features/member-admin/Confirm";
import { CastList, PlayerList } from "~/features/member-admin/MemberLists";
import { RolesTab } from "~/features/member-admin/RolesTab";
import { ToolsMenu, type ToolLink } from "~/features/member-admin/ToolsMenu";
import { Alert } from "~/components/ui/Alert";
import { readForm, searchTermOf } from "~/web/forms/kernel";
import { isManager as isManagerRole, isRole } from "~/game/roles";
import {
  APPLICATIONS_PAGE_SIZE,
  applicationForDecision,
  decideApplication,
  isApplicationFilter,
  listApplications,
} from "~/features/members/applications.server";
import { loadAuditPage } from "~/features/member-admin/audit-page.server";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { newEntryCounts } from "~/features/review/review-queue.server";
import { listCast, listPlayers, MEMBER_LIST_PAGE_SIZE } from "~/features/members/members.server";
import { listMembersWithRoles, memberForRoleChange, ROLES_PAGE_SIZE } from "~/features/member-admin/roles.server";
import { changeRole } from "~/identity/roles.server";

type TabId = "players" | "cast" | "applications" | "roles" | "audit";
const TABS: { id: TabId; label: string; managerOnly?: boolean }[] = [
  { id: "players", label: "Player List" },
  { id: "cast", label: "Cast List" },
  { id: "applications", label: "Applications", managerOnly: true },
  { id: "roles", label: "Roles", managerOnly: true },
  { id: "audit", label: "Audit Log", managerOnly: true },
];

const lastPageOf = (total: number, size: number) => Math.max(0, Math.ceil(total / size) - 1);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "staff");
  const isManager = isManagerRole(user.role);
  const url = new URL(request.url);
  const tab = (TABS.find((t) => t.id === url.searchParams.get("tab") && (!t.managerOnly || isManager))?.id ??
    "players") as TabId;
  const search = searchTermOf(url);
  const page = pageParam(request.url);
  const base = {
    isManager,
    tab,
    players: null,
    cast: null,
    applications: null,
    roles: null,
    audit: null,
    newCounts: await newEntryCounts(),
  };
  if (tab === "players") {
    const found = await listPlayers({ search, page });
    return { ...base, players: { ...found, search, page, lastPage: lastPageOf(found.total, MEMBER_LIST_PAGE_SIZE) } };
  }
  if (tab === "cast") {
    const found = await listCast({ search, page });
    return { ...base, cast: { ...found, search, page, lastPage: lastPageOf(found.total, MEMBER_LIST_PAGE_SIZE) } };
  }
  if (tab === "applications") {
    // Pending applications first: they are the ones waiting for a manager.
    const requested = url.searchParams.get("status");
    const status = isApplicationFilter(requested) ? requested : "pending";
    const found = await listApplications({ status, page });
    return {
      ...base,
      applications: { ...found, status, page, lastPage: lastPageOf(found.total, APPLICATIONS_PAGE_SIZE) },
    };
  }
  if (tab === "audit") {
    const { rows, total, pageSize } = await loadAuditPage(page);
    return { ...base, audit: { rows, total, page, lastPage: lastPageOf(total, pageSize) } };
  }
  const found = await listMembersWithRoles({ search, page });
  return { ...base, roles: { ...found, search, page, lastPage: lastPageOf(found.total, ROLES_PAGE_SIZE) } };
}

type ActionData = { ok?: string; message?: string; at?: number; confirm?: PendingConfirmation };

/**
 * Decisions and role changes happen only when the form says `confirm=yes` (the dialog adds it).
 * Without it the answer is a confirmation step naming the member and the change, so a browser
 * without JavaScript confirms too, and nothing is changed or audited until it does.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  const confirmed = fields.confirm === "yes";
  if (fields.intent === "accept" || fields.intent === "reject")
    return decide(actor, fields.applicationId, fields.intent, confirmed);
  if (fields.intent !== "role" || !isMemberId(fields.userId) || !fields.role || !isRole(fields.role)) {
    return data<ActionData>({ message: "Please choose a member and a role." }, { status: 400 });
  }
  const { userId, role } = fields;
  return failSafely<ActionData>(
    "changing a role",
    { message: "The role could not be changed. Please try again." },
    async () => {
      if (!confirmed) {
        const member = await memberForRoleChange(userId);
        if (!member) return data({ message: "That member no longer exists." }, { status: 404 });
        if (member.role === role) return data({ ok: `That member is already ${role}.`, at: Date.now() });
        return data({ confirm: { intent: "role", userId, role, name: member.name, from: member.role } });
      }
      const outcome = await changeRole(actor, { id: userId }, role);
      if (outcome === "not-found") return data({ message: "That member no longer exists." }, { status: 404 });
      if (outcome === "last-manager") {
        return data(
          { message: "There must always be at least one manager. Make someone else a manager first." },
          { status: 409 },
        );
      }
      return data({
        ok: outcome === "changed" ? `Role changed to ${role}.` : `That member is already ${role}.`,
        at: Date.now(),
      });
    },
  );
}

async function decide(
  actor: Parameters<typeof decideApplication>[0],
  applicationId: string | undefined,
  intent: "accept" | "reject",
  confirmed: boolean,
) {
  if (!isUuid(applicationId))
    return data<ActionData>({ message: "That application no longer exists." }, { status: 404 });
  return failSafely<ActionData>(
    "deciding an application",
    { message: "The application could not be updated. Please try again." },
    async () => {
      if (!confirmed) {
        const application = await applicationForDecision(applicationId);
        if (!application) return data({ message: "That application no longer exists." }, { status: 404 });
        if (application.status !== "pending") {
          return data(
            {
              message: `Another manager has already ${application.status === "accepted" ? "accepted" : "rejected"} this application.`,
            },
            { status: 409 },
          );
        }
        return data({ confirm: { intent, applicationId, name: application.name } });
      }
      const result = await decideApplication(actor, applicationId, intent === "accept" ? "accepted" : "rejected");
      if (result.outcome === "not-found")
        return data({ message: "That application no longer exists." }, { status: 404 });
      if (result.outcome === "already-decided") {
        return data(
          {
            message: `Another manager has already ${result.status === "accepted" ? "accepted" : "rejected"} this application.`,
          },
          { status: 409 },
        );
      }
      return data({
        ok:
          intent === "accept"
            ? `Accepted ${result.name}. The acceptance email is on its way to ${result.email}.`
            : `Rejected ${result.name}. No email is sent: please write to ${result.email} yourself.`,
        at: Date.now(),
      });
    },
  );
}

/** The staff tools: a side menu of tools; each fills in as it is built. */
export default function Tools({ loaderData, actionData }: Route.ComponentProps) {
  const { isManager, tab, newCounts } = loaderData;
  const tabs = TABS.filter((t) => !t.managerOnly || isManager);
  const links: ToolLink[] = [
    { to: "/attendance", label: "View Attendance" },
    { to: "/view-pels", label: "View PELs", waiting: newCounts.pel },
    { to: "/view-merchant-orders", label: "View Merchant Orders", waiting: newCounts.order },
    { to: "/view-research", label: "View Research Papers", waiting: newCounts.research },
    { to: "/view-letters", label: "View Letters", waiting: newCounts.letter },
    { to: "/view-costumes", label: "View Costume Photos", waiting: newCounts.costume },
    ...(isManager
      ? [
          { to: "/events/manage", label: "Manage Events" },
          { to: "/attendance-tool", label: "Attendance Tool" },
          { to: "/emergency-contacts", label: "Emergency Contacts" },
          { to: "/tools/event-day", label: "Event-Day Sheets" },
          { to: "/tools/club", label: "The Club" },
          { to: "/tools/messages", label: "Messages" },
          { to: "/outbox", label: "Outbox" },
        ]
      : []),
  ];
  const active = tabs.find((t) => t.id === tab)!;
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-10">
      <h1 className="text-center text-4xl sm:text-5xl">Tools</h1>
      <hr className="divider my-4 sm:my-6" />
      <div className="grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)] md:items-start">
        <ToolsMenu tabs={tabs} active={tab} links={links} />
        <section aria-labelledby="tool-title" className="panel">
          <h2 id="tool-title" className="mb-4 text-2xl">
            {active.label}
          </h2>
          {actionData?.ok || actionData?.message ? (
            <div className="mb-4 flex flex-col gap-3">
              {actionData.ok ? <SavedNotice key={actionData.at} message={actionData.ok} /> : null}
              {actionData.message ? <Alert kind="error">{actionData.message}</Alert> : null}
            </div>
          ) : null}
          {actionData?.confirm ? (
            <ConfirmPanel pending={actionData.confirm} busy={navigation.state !== "idle"} />
          ) : loaderData.players ? (
            <PlayerList list={loaderData.players} linkMembers={isManager} />
          ) : loaderData.cast ? (
            <CastList list={loaderData.cast} linkMembers={isManager} />
          ) : loaderData.applications ? (
            <ApplicationsTab list={loaderData.applications} />
          ) : loaderData.roles ? (
            <RolesTab roles={loaderData.roles} />
          ) : loaderData.audit ? (
            <AuditTab list={loaderData.audit} />
          ) : (
            <p className="text-dust">Feature coming soon!</p>
          )}
        </section>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Tools · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError; docs/product.md#pages-that-fail-to-load), which differs for applications. */
export const ErrorBoundary = pageErrorBoundary("Tools", ({ search, role }) =>
  search.get("tab") === "applications" && role !== null && isManagerRole(role)
    ? "Failed to load data"
    : "Failed to load user data",
);
