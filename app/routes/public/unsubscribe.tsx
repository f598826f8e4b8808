import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe";
import { Link } from "~/components/Link";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { UNSUBSCRIBE_MESSAGES } from "~/features/messages/choices.messages";
import { unsubscribe, validUnsubscribeLink } from "~/features/messages/choices.server";
import type { MessageChoice } from "~/game/messages";
import { failSafely } from "~/web/actions.server";

/**
 * The address every managers' message carries to stop that kind of message, without signing in.
 * Reading it changes nothing (mail scanners follow links): it asks, with a button that posts to
 * this same address. A mail program's one-click unsubscribe (RFC 8058) posts here directly, with
 * no cookie and maybe another site's Origin: the token in the address is the proof
 * (web/middleware.server.ts: SIGNED_BY_SENDER).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const link = await validUnsubscribeLink(new URL(request.url));
  if (!link) return data({ choice: null }, { status: 400 });
  return { choice: link.choice };
}

type Outcome = { outcome: "done"; choice: MessageChoice } | { outcome: "invalid" } | { outcome: "failed" };

export async function action({ request }: Route.ActionArgs) {
  return failSafely<Outcome>("unsubscribing by a message's link", { outcome: "failed" }, async () => {
    const link = await validUnsubscribeLink(new URL(request.url));
    if (!link) return data<Outcome>({ outcome: "invalid" }, { status: 400 });
    await unsubscribe(link);
    return data<Outcome>({ outcome: "done", choice: link.choice });
  });
}

/** The page in each of its states, titled as its heading: asking, done, or a link that is not valid. */
function Page({ heading, children }: { heading: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10">
      {/* The title follows the post's outcome, which the route's meta cannot see. */}
      <title>{`${heading} · Hopewell`}</title>
      <h1 className="text-center text-5xl">{heading}</h1>
      <hr className="divider my-6" />
      <section className="panel flex flex-col gap-4">{children}</section>
    </div>
  );
}

const ToProfile = () => (
  <Link to="/profile" className="self-start">
    {UNSUBSCRIBE_MESSAGES.toProfile}
  </Link>
);

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (actionData?.outcome === "done")
    return (
      <Page heading={UNSUBSCRIBE_MESSAGES.doneHeading}>
        <Alert kind="success">{UNSUBSCRIBE_MESSAGES.done(actionData.choice)}</Alert>
        <ToProfile />
      </Page>
    );
  const { choice } = loaderData;
  if (!choice || actionData?.outcome === "invalid")
    return (
      <Page heading={UNSUBSCRIBE_MESSAGES.invalidHeading}>
        <Alert kind="error">{UNSUBSCRIBE_MESSAGES.invalid}</Alert>
        <ToProfile />
      </Page>
    );
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Page heading={UNSUBSCRIBE_MESSAGES.question(choice)}>
      {actionData?.outcome === "failed" ? <Alert kind="error">{UNSUBSCRIBE_MESSAGES.failed}</Alert> : null}
      <p>{UNSUBSCRIBE_MESSAGES.explanation(choice)}</p>
      {/* No action: the form posts to this very address, its member, choice and token included. */}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <SubmitButton className="btn btn-primary self-start" busy={busy}>
          {busy ? UNSUBSCRIBE_MESSAGES.busy : UNSUBSCRIBE_MESSAGES.button}
        </SubmitButton>
      </Form>
      <ToProfile />
    </Page>
  );
}

export const ErrorBoundary = pageErrorBoundary(UNSUBSCRIBE_MESSAGES.invalidHeading, UNSUBSCRIBE_MESSAGES.failed);
