import { data, Form, isRouteErrorResponse, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/setup";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { SignUpForm } from "~/features/accounts/auth.form";
import { type FieldErrors, fieldErrors, readForm } from "~/web/forms/kernel";
import { createFirstManager, setupIsOpen } from "~/features/accounts/first-manager.server";

const CLOSED = "This set-up link has been used or has expired. Managers are made by an existing manager in the tools.";

/** Open only with the token the server printed at start-up, and only while the site has no manager. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!(await setupIsOpen(token))) throw data(CLOSED, { status: 404 });
  return { token };
}

type ActionData = { errors?: FieldErrors; message?: string };

export async function action({ request }: Route.ActionArgs) {
  const fields = await readForm(request);
  const token = fields.token ?? "";
  if (!(await setupIsOpen(token))) throw data(CLOSED, { status: 404 });
  const parsed = SignUpForm.safeParse(fields);
  if (!parsed.success) return data<ActionData>({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const outcome = await createFirstManager(token, parsed.data);
  if (!outcome.ok) {
    if (!("message" in outcome)) throw data(CLOSED, { status: 404 });
    return data<ActionData>({ message: outcome.message }, { status: outcome.status });
  }
  return redirect("/auth?created=1");
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData?.errors;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        <h1 className="text-center text-3xl">Create the First Manager</h1>
        <p className="mt-4 text-dust">
          This site has no manager yet. The account made here can accept applications and give other members their
          roles.
        </p>
        <Form method="post" noValidate className="mt-6 flex flex-col gap-4">
          {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
          <input type="hidden" name="token" value={loaderData.token} />
          <Field label="First name" name="firstName" autoComplete="given-name" required error={errors?.firstName} />
          <Field label="Last name" name="lastName" autoComplete="family-name" required error={errors?.lastName} />
          <Field label="Email" name="email" type="email" autoComplete="email" required error={errors?.email} />
          <NewPasswordFields errors={errors} />
          <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
            {submitting ? "Creating…" : "Create Manager Account"}
          </button>
        </Form>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Create the First Manager · Hopewell" },
  { name: "robots", content: "noindex" },
];

/** A used, wrong or expired link says so plainly (status 404). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const closed = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="panel">
        <h1 className="text-center text-3xl">Create the First Manager</h1>
        <div className="mt-6">
          <Alert kind="error">{closed ? CLOSED : "Something went wrong. Please try again."}</Alert>
        </div>
      </div>
    </div>
  );
}
