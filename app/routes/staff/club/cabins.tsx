import { useNavigation } from "react-router";
import type { Route } from "./+types/cabins";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { CabinsForm } from "~/features/club-facts/cabins/CabinsEditor";
import { loadCabinsPage, restoreCabins, saveCabins } from "~/features/club-facts/cabins/cabins-page.server";
import { FactsHistory } from "~/features/club-facts/FactsHistory";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadCabinsPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreCabins(fields, manager);
  return saveCabins(fields, manager);
}

export default function CabinsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-center text-5xl">The Cabins</h1>
      <p className="text-center">
        <Link to="/tools/club">Back to the Club</Link> · <Link to="/attendance-tool">The attendance tool</Link>
      </p>
      {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
      {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
      {/* After a save the form starts again from what is saved; after a refusal, from what was typed. */}
      <CabinsForm
        key={actionData?.rows ? "typed" : `version-${loaderData.version}`}
        rows={actionData?.rows ?? loaderData.rows}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
      <FactsHistory
        history={loaderData.history}
        version={loaderData.version}
        busy={busy}
        starting="The starting cabins"
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Cabins · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Cabins",
  "The cabins could not be loaded. Please try again in a moment.",
);
