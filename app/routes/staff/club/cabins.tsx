import type { Route } from "./+types/cabins";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { CabinsForm } from "~/features/club-facts/cabins/CabinsEditor";
import { loadCabinsPage, restoreCabins, saveCabins } from "~/features/club-facts/cabins/cabins-page.server";
import { ClubListPage } from "~/features/club-facts/ClubFactPage";
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
  return (
    <ClubListPage
      title="The Cabins"
      also={<Link to="/attendance-tool">The attendance tool</Link>}
      starting="The starting cabins"
      Editor={CabinsForm}
      loaderData={loaderData}
      actionData={actionData}
    />
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Cabins · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Cabins",
  "The cabins could not be loaded. Please try again in a moment.",
);
