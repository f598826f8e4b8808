import { useNavigation } from "react-router";
import type { Route } from "./+types/merchant";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ClubFactPage } from "~/features/club-facts/ClubFactPage";
import { MerchantForm, MerchantPreview } from "~/features/club-facts/merchant/MerchantEditor";
import {
  loadMerchantPage,
  previewMerchant,
  restoreMerchant,
  saveMerchant,
} from "~/features/club-facts/merchant/merchant-page.server";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadMerchantPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreMerchant(fields, manager);
  if (fields.intent === "save") return saveMerchant(fields, manager);
  return previewMerchant(fields);
}

export default function MerchantPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // After a save the form starts again from what is saved; after a refusal or a preview, from what was typed.
  const typed = actionData?.rows ? actionData : undefined;
  return (
    <ClubFactPage
      title="The Merchant"
      also={<Link to="/merchant-orders">See the order form</Link>}
      answer={actionData}
      history={loaderData.history}
      version={loaderData.version}
      busy={busy}
      starting="The starting price list"
    >
      {actionData?.preview ? <MerchantPreview preview={actionData.preview} /> : null}
      <MerchantForm
        key={typed ? "typed" : `version-${loaderData.version}`}
        currency={typed?.currency ?? loaderData.currency}
        rows={typed?.rows ?? loaderData.rows}
        events={loaderData.events}
        version={loaderData.version}
        answer={actionData}
        busy={busy}
      />
    </ClubFactPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Merchant · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Merchant",
  "The price list could not be loaded. Please try again in a moment.",
);
