import type { Route } from "./+types/factions";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { FactionsForm } from "~/features/club-facts/factions/FactionsEditor";
import { loadFactionsPage, restoreFactions, saveFactions } from "~/features/club-facts/factions/factions-page.server";
import { ClubListPage } from "~/features/club-facts/ClubFactPage";
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
  return (
    <ClubListPage
      title="Factions and Jobs"
      starting="The starting factions and jobs"
      Editor={FactionsForm}
      loaderData={loaderData}
      actionData={actionData}
    />
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Factions and Jobs · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "Factions and Jobs",
  "The factions and jobs could not be loaded. Please try again in a moment.",
);
