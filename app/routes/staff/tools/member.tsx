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
import { RecordPanels } from "~/features/member-admin/member/RecordPanels";
import { MemberConfirmPanel } from "~/features/member-admin/MemberConfirm";
import { Alert } from "~/components/ui/Alert";
import { readForm } from "~/web/forms/kernel";
import { MEMBER_ADMIN_MESSAGES } from "~/features/member-admin/member-admin.form";
import { isMemberId } from "~/lib/ids";
import { requireAccess } from "~/web/guards.server";
import { memberAccount, type MemberAccount } from "~/features/member-admin/member-admin.server";
import { answerMemberForm } from "~/features/member-admin/member-intents.server";
import { memberRecord } from "~/features/member-admin/member-record.server";
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
  return { member, record: await memberRecord(member.id), self: user.id === member.id, invited, sms: smsEnabled() };
}

const fullName = (member: { firstName: string; lastName: string }) => `${member.firstName} ${member.lastName}`;

/** One of the page's changes (member-intents.server.ts), each confirmed before it is made. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requireAccess(context, request, "manager");
  if (!isMemberId(params.id)) throw data(MEMBER_ADMIN_MESSAGES.notFound, { status: 404 });
  return answerMemberForm(actor, params.id, await readForm(request));
}

export default function ToolsMember({ loaderData, actionData }: Route.ComponentProps) {
  const { member, record, self, invited, sms } = loaderData;
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
          <RecordPanels record={record} name={name} />
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
