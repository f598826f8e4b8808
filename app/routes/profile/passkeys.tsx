import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/passkeys";
import { AddPasskey } from "~/features/passkeys/AddPasskey";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { checkForm, readForm } from "~/web/forms/kernel";
import { PASSKEY_MESSAGES } from "~/features/passkeys/passkey-messages";
import { PASSKEY_NAME_MAX, RenamePasskeyForm } from "~/features/passkeys/passkeys.form";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import { formatClubDay } from "~/lib/dates";
import { failSafely } from "~/web/actions.server";
import { describeUserAgent } from "~/features/accounts/devices.server";
import { requireAccess } from "~/web/guards.server";
import { listPasskeys, removePasskey, renamePasskey, type PasskeyView } from "~/features/passkeys/passkeys.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  return {
    canHaveCharacter: canBuildCharacter(user.role),
    passkeys: await listPasskeys(request),
    // "Chrome 131 on Android 14": a starting point the member can change.
    suggestedName: describeUserAgent(request.headers.get("User-Agent")).slice(0, PASSKEY_NAME_MAX),
  };
}

type ActionData = { ok?: string; message?: string; renameErrors?: { id: string; name: string } };
const INTENTS = ["rename", "remove", "add"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  const fields = await readForm(request);
  const intent = INTENTS.find((i) => i === fields.intent);
  if (!intent) return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
  // Adding runs the browser's WebAuthn call (features/passkeys/AddPasskey.tsx): this post means it did not run.
  if (intent === "add") return data<ActionData>({ message: PASSKEY_MESSAGES.needsJavaScript }, { status: 400 });
  if (intent === "rename") {
    const parsed = checkForm(RenamePasskeyForm, fields);
    if (!parsed.ok) {
      if (parsed.errors.name && !parsed.errors.id)
        return data<ActionData>({ renameErrors: { id: fields.id ?? "", name: parsed.errors.name } }, { status: 400 });
      return data<ActionData>({ message: PASSKEY_MESSAGES.gone }, { status: 404 });
    }
  }
  return failSafely<ActionData>("changing a passkey", { message: PASSKEY_MESSAGES.failed }, async () => {
    const id = fields.id ?? "";
    const done =
      intent === "rename"
        ? await renamePasskey(request, id, RenamePasskeyForm.parse(fields).name)
        : await removePasskey(request, id);
    if (!done) return data({ message: PASSKEY_MESSAGES.gone }, { status: 404 });
    return data({ ok: intent === "rename" ? PASSKEY_MESSAGES.renamed : PASSKEY_MESSAGES.removed });
  });
}

function PasskeyRow({ passkey, busy, renameError }: { passkey: PasskeyView; busy: boolean; renameError?: string }) {
  return (
    <li className="flex flex-col gap-3 py-4" data-testid="passkey">
      <h3 className="text-xl break-words">{passkey.name}</h3>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        {passkey.authenticator ? (
          <>
            <dt className="text-dust">Kept by</dt>
            <dd>{passkey.authenticator}</dd>
          </>
        ) : null}
        <dt className="text-dust">Added</dt>
        <dd>{passkey.addedAt ? formatClubDay(passkey.addedAt) : "Unknown"}</dd>
        <dt className="text-dust">Where it works</dt>
        <dd>{passkey.synced ? "Synced to your other devices" : "On one device or security key"}</dd>
      </dl>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Form method="post" noValidate className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="id" value={passkey.id} />
          <Field
            label={`New name for ${passkey.name}`}
            name="name"
            required
            maxLength={PASSKEY_NAME_MAX}
            defaultValue={passkey.name}
            error={renameError}
            className="flex-1"
          />
          <button type="submit" name="intent" value="rename" className="btn btn-secondary" disabled={busy}>
            Rename
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="id" value={passkey.id} />
          <button type="submit" name="intent" value="remove" className="btn btn-secondary w-full" disabled={busy}>
            Remove<span className="sr-only"> {passkey.name}</span>
          </button>
        </Form>
      </div>
    </li>
  );
}

export default function ProfilePasskeys({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { passkeys } = loaderData;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="passkeys">
      <section aria-labelledby="passkeys" className="panel flex flex-col gap-4">
        <h2 id="passkeys" className="text-2xl">
          Passkeys
        </h2>
        <p className="text-sm text-dust">
          A passkey signs you in without a password: your device confirms it is you with your fingerprint, face, screen
          lock or a security key. Signing in with a passkey also counts as the stronger sign-in that managers&apos;
          tools ask for.
        </p>
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        {passkeys.length ? (
          <ul className="divide-y divide-ash">
            {passkeys.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                busy={busy}
                renameError={actionData?.renameErrors?.id === passkey.id ? actionData.renameErrors.name : undefined}
              />
            ))}
          </ul>
        ) : (
          <p>You have no passkeys yet.</p>
        )}
        {/* Started afresh after a rename or removal, so its own last message does not linger beside the new one. */}
        <AddPasskey key={actionData?.ok ?? actionData?.message ?? "add"} suggestedName={loaderData.suggestedName} />
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Passkeys · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Passkeys", SUBMISSION_MESSAGES.loadFailed);
