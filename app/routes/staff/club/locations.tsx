import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/locations";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { ClubFactPage } from "~/features/club-facts/ClubFactPage";
import { PreviewAndSave } from "~/features/club-facts/PreviewAndSave";
import { LOCATION_SECTIONS, type LocationSection } from "~/features/club-facts/pages/location-sections";
import { locationsPage } from "~/features/club-facts/pages/locations.server";
import { TextsPreview } from "~/features/club-facts/pages/TextsPreview";
import { FORMATTED_TEXT_HINT, FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return locationsPage.load();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  return locationsPage.answer(await readForm(request), manager);
}

/** What each section holds on /locations, besides the words written here. */
const SHOWN_WITH: Partial<Record<LocationSection, string>> = {
  arrival: "Shown under the times the venue opens and the game starts.",
};

export default function LocationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const texts = actionData?.texts ?? loaderData.texts;
  return (
    <ClubFactPage
      title="The Location Page"
      also={<Link to="/locations">See it on the location page</Link>}
      answer={actionData}
      history={loaderData.history}
      version={loaderData.version}
      busy={busy}
      starting="The starting location page"
    >
      {actionData?.errors ? <Alert kind="error">Some sections need a change: see the messages below.</Alert> : null}
      {actionData?.preview ? <TextsPreview preview={actionData.preview} titles={LOCATION_SECTIONS} /> : null}
      {/* After a save the form starts again from what is saved; after a refusal or a preview, from what was typed. */}
      <Form
        key={actionData?.texts ? "typed" : `version-${loaderData.version}`}
        method="post"
        noValidate
        className="panel flex flex-col gap-6"
      >
        <p className="text-dust">
          The words of the four sections on the game location page. The venue&apos;s address, its map and the arrival
          times are the site&apos;s own and stay as they are. Nothing changes on the site until you save; every saved
          version stays in the history below.
        </p>
        <input type="hidden" name="version" value={loaderData.version} />
        {(Object.keys(LOCATION_SECTIONS) as LocationSection[]).map((section) => (
          <TextAreaField
            key={section}
            label={LOCATION_SECTIONS[section]}
            name={section}
            rows={8}
            maxLength={FORMATTED_TEXT_MAX}
            hint={SHOWN_WITH[section] ? `${SHOWN_WITH[section]} ${FORMATTED_TEXT_HINT}` : FORMATTED_TEXT_HINT}
            defaultValue={texts[section]}
            error={actionData?.errors?.[section]}
          />
        ))}
        <PreviewAndSave busy={busy} save="Save the location page" />
      </Form>
    </ClubFactPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Location Page · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Location Page",
  "The location page's words could not be loaded. Please try again in a moment.",
);
