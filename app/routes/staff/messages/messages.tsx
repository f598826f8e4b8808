import type { Route } from "./+types/messages";
import { Pager, ResultCount } from "~/components/ListControls";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ButtonLink } from "~/components/ui/ButtonLink";
import { MessageList } from "~/features/messages/MessageRecord";
import { MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { loadRecordPage } from "~/features/messages/record-page.server";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadRecordPage(request.url);
}

/** The managers' record of the messages sent to members, newest first. */
export default function MessagesPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-4xl sm:text-5xl">Messages</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <ResultCount total={loaderData.total} noun="message" />
          <ButtonLink to="/tools/messages/new">Write a message</ButtonLink>
        </div>
        <MessageList rows={loaderData.rows} />
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Messages · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Messages", MESSAGES_MESSAGES.loadFailed);
