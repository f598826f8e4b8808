import { isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/message";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { MessageView } from "~/features/messages/MessageRecord";
import { MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { loadMessagePage } from "~/features/messages/record-page.server";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadMessagePage(params.id, request.url);
}

/** One message sent to members: what it said, and where each member's copy stands. */
export default function MessagePage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-4xl sm:text-5xl">Message</h1>
      <p className="text-center">
        <Link to="/tools/messages">All messages sent</Link> · <Link to="/tools/messages/new">Write a message</Link>
      </p>
      {loaderData.notice ? <Alert kind="success">{loaderData.notice}</Alert> : null}
      <MessageView message={loaderData.message} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.message.subject ?? "Message"} · Messages · Hopewell` },
];

const Failure = pageErrorBoundary("Message", MESSAGES_MESSAGES.loadFailed);

/** An unknown or malformed id: a 404 page that says so and leads back to the record. Anything else as every page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
        <title>Message not found · Hopewell</title>
        <h1 className="text-4xl">Message not found</h1>
        <Alert kind="error">{MESSAGES_MESSAGES.notFound}</Alert>
        <p>
          <Link to="/tools/messages">← All messages sent</Link>
        </p>
      </div>
    );
  }
  return <Failure error={error} />;
}
