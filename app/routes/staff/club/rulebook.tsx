import { useState } from "react";
import { useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/rulebook";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { FactsHistory } from "~/features/club-facts/FactsHistory";
import {
  RulebookBuiltInForm,
  RulebookLinkForm,
  RulebookNowPanel,
  RulebookUploadForm,
} from "~/features/club-facts/pages/RulebookForms";
import {
  answerRulebookForm,
  loadRulebookPage,
  type RulebookAnswer,
} from "~/features/club-facts/pages/rulebook-page.server";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadRulebookPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  return answerRulebookForm(request, manager);
}

export default function RulebookPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // The upload's answer when its script sent it, until a form posted since answers instead.
  const [uploaded, setUploaded] = useState<{ answer: RulebookAnswer; over: typeof actionData } | null>(null);
  const shown = uploaded && uploaded.over === actionData ? uploaded.answer : actionData;
  const { version, now } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">The Rulebook</h1>
      <p className="text-center">
        <Link to="/tools/club">Back to the Club</Link> · <Link to="/rulebook">See it on the rulebook page</Link>
      </p>
      {shown?.ok ? <Alert kind="success">{shown.ok}</Alert> : null}
      {shown?.message ? <Alert kind="error">{shown.message}</Alert> : null}
      <RulebookNowPanel now={now} />
      <RulebookUploadForm
        version={version}
        error={shown?.errors?.file}
        busy={busy}
        onAnswer={(answer) => setUploaded({ answer, over: actionData })}
        saved={() => void revalidator.revalidate()}
      />
      <RulebookLinkForm
        // After a save the form starts again from what is saved; after a refusal, from what was typed.
        key={shown?.url !== undefined ? "typed" : `version-${version}`}
        version={version}
        url={shown?.url ?? (now.source === "link" ? now.url : "")}
        error={shown?.errors?.url}
        busy={busy}
      />
      <RulebookBuiltInForm version={version} current={now.source === "built-in"} busy={busy} />
      <FactsHistory history={loaderData.history} version={version} busy={busy} starting="The starting rulebook" />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Rulebook · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Rulebook",
  "The rulebook's page could not be loaded. Please try again in a moment.",
);
