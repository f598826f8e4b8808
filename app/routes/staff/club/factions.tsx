import { useNavigation } from "react-router";
import type { Route } from "./+types/factions";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { FactionsForm } from "~/features/club-facts/factions/FactionsEditor";
import { loadFactionsPage, restoreFactions, saveFactions } from "~/features/club-facts/factions/factions-page.server";
import { ClubFactPage } from "~/features/club-facts/ClubFactPage";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadFactionsPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreFactions(fields, manager);
  return saveFactions(fields, manager);
}

export default function FactionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ClubFactPage
      title="Factions and Jobs"

      answer={actionData}
      history={loaderData.history}
      version={loaderData.version}
      busy={busy}
      starting="The starting factions and jobs"
    >
      {/* After a save the form starts again from what is saved; after a refusal, from what was typed. */}
      <FactionsForm
        key={actionData?.rows ? "typed" : `version-${loaderData.version}`}
        rows={actionData?.rows ?? loaderData.rows}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
    </ClubFactPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Factions and Jobs · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "Factions and Jobs",
  "The factions and jobs could not be loaded. Please try again in a moment.",
);
