import { useNavigation } from "react-router";
import type { Route } from "./+types/faq";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { FactsHistory } from "~/features/club-facts/FactsHistory";
import { FaqForm, FaqNotice, FaqPreview } from "~/features/club-facts/faq/FaqEditor";
import { loadFaqPage, previewFaq, restoreFaq, saveFaq } from "~/features/club-facts/faq/faq-page.server";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadFaqPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreFaq(fields, manager);
  if (fields.intent === "save") return saveFaq(fields, manager);
  return previewFaq(fields);
}

export default function FaqPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // After a save the form starts again from what is saved; after a refusal or a preview, from what was typed.
  const rows = actionData?.rows ?? loaderData.rows;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">The FAQ</h1>
      <p className="text-center">
        <Link to="/tools/club">Back to the Club</Link> · <Link to="/#faq-title">See it on the home page</Link>
      </p>
      <FaqNotice answer={actionData} />
      {actionData?.preview ? <FaqPreview preview={actionData.preview} /> : null}
      <FaqForm
        key={actionData?.rows ? "typed" : `version-${loaderData.version}`}
        rows={rows}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
      <FactsHistory history={loaderData.history} version={loaderData.version} busy={busy} starting="The starting FAQ" />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The FAQ · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("The FAQ", "The FAQ could not be loaded. Please try again in a moment.");
