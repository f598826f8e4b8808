import { data, useNavigation } from "react-router";
import type { Route } from "./+types/compose";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { ComposeForm } from "~/features/messages/ComposeForm";
import { ComposePreview } from "~/features/messages/ComposePreview";
import {
  loadComposePage,
  previewMessage,
  sendComposedMessage,
  sendTestMessage,
} from "~/features/messages/compose-page.server";
import { MESSAGES_MESSAGES } from "~/features/messages/messages.form";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadComposePage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "preview") return previewMessage(fields);
  if (fields.intent === "test") return sendTestMessage(manager, fields);
  if (fields.intent === "send") return sendComposedMessage(manager, fields);
  throw data("That action is not available here.", { status: 400 });
}

export default function ComposePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const answer = actionData;
  const values = answer?.values ?? {
    audience: "all",
    eventId: "",
    subject: "",
    body: "",
    discord: false,
    mustReach: false,
    submissionKey: loaderData.submissionKey,
  };
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-4xl sm:text-5xl">Write a Message</h1>
      <p className="text-center">
        <Link to="/tools/messages">All messages sent</Link>
      </p>
      {answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      {answer?.preview ? <ComposePreview preview={answer.preview} /> : null}
      <ComposeForm
        events={loaderData.events}
        discordOffered={loaderData.discordOffered}
        values={values}
        errors={answer?.errors}
        preview={answer?.preview}
        busy={busy}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Write a Message · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Write a Message", MESSAGES_MESSAGES.loadFailed);
