import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/welcome";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { PreviewAndSave } from "~/features/club-facts/PreviewAndSave";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { ClubFactPage } from "~/features/club-facts/ClubFactPage";
import { TextsPreview } from "~/features/club-facts/pages/TextsPreview";
import { welcomePage } from "~/features/club-facts/pages/welcome-page.server";
import { FORMATTED_TEXT_HINT, FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return welcomePage.load();
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  return welcomePage.answer(await readForm(request), manager);
}

export default function WelcomePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ClubFactPage
      title="The Welcome"
      also={<Link to="/#welcome-title">See it on the home page</Link>}
      answer={actionData}
      history={loaderData.history}
      version={loaderData.version}
      busy={busy}
      starting="The starting welcome"
    >
      {actionData?.preview ? <TextsPreview preview={actionData.preview} /> : null}
      {/* After a save the form starts again from what is saved; after a refusal or a preview, from what was typed. */}
      <Form
        key={actionData?.texts ? "typed" : `version-${loaderData.version}`}
        method="post"
        noValidate
        className="panel flex flex-col gap-4"
      >
        <p className="text-dust">
          The story under “Welcome to Hopewell” on the home page. Nothing changes on the site until you save; every
          saved version stays in the history below.
        </p>
        <input type="hidden" name="version" value={loaderData.version} />
        <TextAreaField
          label="Welcome"
          name="text"
          rows={14}
          maxLength={FORMATTED_TEXT_MAX}
          hint={FORMATTED_TEXT_HINT}
          defaultValue={actionData?.texts?.text ?? loaderData.texts.text}
          error={actionData?.errors?.text}
        />
        <PreviewAndSave busy={busy} save="Save the welcome" />
      </Form>
    </ClubFactPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "The Welcome · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "The Welcome",
  "The welcome could not be loaded. Please try again in a moment.",
);
