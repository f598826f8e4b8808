import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/data";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { PasswordField } from "~/features/accounts/PasswordField";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { ConfirmCheckbox } from "~/components/ui/Field";
import { DeletionStatement } from "~/features/accounts/DeletionStatement";
import { DeleteAccountForm, DELETION_MESSAGES } from "~/features/accounts/account-deletion.form";
import { type FieldErrors, checkForm, readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import { formatClubTime } from "~/lib/dates";
import { failSafely } from "~/web/actions.server";
import { deleteAccount } from "~/features/accounts/account-deletion.server";
import { clearedSessionCookies } from "~/features/accounts/accounts.server";
import { hasPassword, reauthenticate } from "~/features/accounts/reauthenticate.server";
import { requireAccess } from "~/web/guards.server";
import { EXPORT_KEEP_MS, latestExport, requestExport } from "~/features/member-data/member-data.server";

/**
 * "My data": take out a copy of everything the site holds about the member (prepared in the
 * background, then downloaded from here), or delete the account after re-authenticating.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const [latest, withPassword] = await Promise.all([latestExport(user.id), hasPassword(user.id)]);
  const expired = latest?.expiresAt ? latest.expiresAt.getTime() <= Date.now() : false;
  return {
    canHaveCharacter: canBuildCharacter(user.role),
    withPassword,
    keepDays: Math.round(EXPORT_KEEP_MS / (24 * 60 * 60_000)),
    latest:
      latest && !expired
        ? {
            id: latest.id,
            status: latest.status,
            createdAt: latest.createdAt.toISOString(),
            expiresAt: latest.expiresAt?.toISOString() ?? null,
            fileSize: latest.fileSize,
          }
        : null,
  };
}

type ActionData = { ok?: string; message?: string; errors?: FieldErrors };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const fields = await readForm(request);
  if (fields.intent === "export") {
    return failSafely<ActionData>(
      "requesting a data export",
      { message: "Your data could not be prepared. Please try again in a moment." },
      async () => {
        await requestExport(user.id);
        return data({ ok: "Your data is being prepared. We will email you when it is ready to download here." });
      },
    );
  }
  if (fields.intent !== "delete")
    return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
  const parsed = checkForm(DeleteAccountForm, fields);
  if (!parsed.ok) {
    // Both fields' messages at once: an unticked box and a missing password.
    const errors = { ...parsed.errors };
    if (!fields.currentPassword && (await hasPassword(user.id)))
      errors.currentPassword = DELETION_MESSAGES.passwordRequired;
    return data<ActionData>({ errors }, { status: 400 });
  }
  return failSafely<ActionData>("deleting an account", { message: DELETION_MESSAGES.failed }, async () => {
    const proof = await reauthenticate(request, user, parsed.data.currentPassword);
    if (!proof.ok) {
      if (proof.field) return data({ errors: { [proof.field]: proof.message } }, { status: proof.status });
      return data({ message: proof.message }, { status: proof.status });
    }
    const outcome = await deleteAccount(user.id, { actorId: user.id });
    if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
    const headers = new Headers();
    for (const cookie of await clearedSessionCookies(request)) headers.append("Set-Cookie", cookie);
    throw redirect("/account-deleted", { headers });
  });
}

function size(bytes: number | null): string {
  if (bytes === null) return "";
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function ExportSection({
  latest,
  keepDays,
  busy,
}: {
  latest: Route.ComponentProps["loaderData"]["latest"];
  keepDays: number;
  busy: boolean;
}) {
  const preparing = latest !== null && (latest.status === "pending" || latest.status === "building");
  return (
    <section aria-labelledby="export-heading" className="panel flex flex-col gap-4">
      <h2 id="export-heading" className="text-2xl">
        Take out your data
      </h2>
      <p>
        Download everything this site holds about you as one ZIP file: your profile and emergency contact, your
        application and character, your post-event letters, merchant orders and research papers with their files, your
        costume photos with staff&apos;s verdicts, the letters you sent and those addressed to your character, your
        attendance and cabins, the managers&apos; messages to you and your choices of them, and your sign-in history
        (devices, addresses and times). Your sign-in methods, second factor and passkeys are listed by name and date
        only, never their secrets.
      </p>
      <p className="text-sm text-dust">
        The file is prepared in the background; we email you when it is ready. Only you can download it, for {keepDays}{" "}
        days, after which it is deleted.
      </p>
      {latest && preparing ? (
        <>
          {/* Without JavaScript too: the page reloads itself until the file is ready. */}
          <meta httpEquiv="refresh" content="10" />
          <p role="status" data-testid="export-status">
            <strong>Being prepared</strong> since {formatClubTime(latest.createdAt)}. This page refreshes itself every
            10 seconds; you can also leave and come back when the email arrives.
          </p>
        </>
      ) : null}
      {latest?.status === "ready" && latest.expiresAt ? (
        <div className="flex flex-col gap-2" data-testid="export-status">
          <p>
            <strong>Ready.</strong> Available until {formatClubTime(latest.expiresAt)}.
          </p>
          <a className="btn btn-primary self-start" href={`/profile/data/${latest.id}/file`} download>
            Download my data (ZIP, {size(latest.fileSize)})
          </a>
        </div>
      ) : null}
      {latest?.status === "failed" ? (
        <Alert kind="error">
          Your last copy could not be prepared. Please ask again; if it keeps failing, tell a manager.
        </Alert>
      ) : null}
      {preparing ? null : (
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value="export"
            className={`btn ${latest?.status === "ready" ? "btn-secondary" : "btn-primary"}`}
            disabled={busy}
          >
            {latest?.status === "ready" ? "Prepare a new copy" : "Prepare my data"}
          </button>
        </Form>
      )}
    </section>
  );
}

function DeleteSection({ withPassword, errors, busy }: { withPassword: boolean; errors?: FieldErrors; busy: boolean }) {
  return (
    <section aria-labelledby="delete-heading" className="panel flex flex-col gap-4">
      <h2 id="delete-heading" className="text-2xl">
        Delete my account
      </h2>
      <p>This cannot be undone. Take out your data first if you want a copy.</p>
      <DeletionStatement whose="your" />
      <Form method="post" noValidate className="flex max-w-md flex-col gap-4">
        {withPassword ? (
          <PasswordField
            label="Your password"
            name="currentPassword"
            autoComplete="current-password"
            required
            error={errors?.currentPassword}
          />
        ) : (
          <p className="text-sm text-dust">
            You sign in without a password (with Discord or an emailed code). To confirm it is you, your account can be
            deleted only within 10 minutes of signing in: if it is longer ago, sign out and sign in again first.
          </p>
        )}
        <ConfirmCheckbox error={errors?.confirm}>
          I understand that my account and the data listed above are deleted for good.
        </ConfirmCheckbox>
        <button type="submit" name="intent" value="delete" className="btn btn-danger self-start" disabled={busy}>
          Delete my account
        </button>
      </Form>
    </section>
  );
}

export default function ProfileData({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="data">
      <div className="flex flex-col gap-6">
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        <ExportSection latest={loaderData.latest} keepDays={loaderData.keepDays} busy={busy} />
        <DeleteSection withPassword={loaderData.withPassword} errors={actionData?.errors} busy={busy} />
      </div>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My data · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("My data", SUBMISSION_MESSAGES.loadFailed);
