import { useState, type FormEvent } from "react";
import { Form, useRevalidator } from "react-router";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { PASSKEY_MESSAGES } from "./passkey-messages";
import { PASSKEY_NAME_MAX, passkeyName } from "./passkeys.form";
import { addPasskey } from "./passkey-browser";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * The form that adds a passkey on /profile/passkeys. The browser's WebAuthn call needs
 * JavaScript: without it the form posts to the page, which says so (and the page says it
 * up front); the rest of the page works either way.
 */
export function AddPasskey({ suggestedName }: { suggestedName: string }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string; field?: boolean } | null>(null);
  const [formKey, setFormKey] = useState(0);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = passkeyName.safeParse(new FormData(event.currentTarget).get("name") ?? "");
    if (!name.success) {
      setOutcome({ ok: false, message: name.error.issues[0]!.message, field: true });
      return;
    }
    setBusy(true);
    setOutcome(null);
    const added = await addPasskey(name.data);
    setBusy(false);
    setOutcome({ ok: added.ok, message: added.message });
    if (added.ok) {
      setFormKey((key) => key + 1);
      await revalidator.revalidate();
    }
  }

  return (
    <section aria-labelledby="add-passkey" className="flex flex-col gap-3 border-t border-ash pt-4">
      <h3 id="add-passkey" className="text-xl">
        Add a passkey
      </h3>
      <p className="text-sm text-dust">
        Your browser or phone asks you to confirm with your fingerprint, face, screen lock or security key, and keeps
        the passkey for you.
      </p>
      <noscript>
        <p className="font-bold">{PASSKEY_MESSAGES.needsJavaScript}</p>
      </noscript>
      {outcome && !outcome.field ? <Alert kind={outcome.ok ? "success" : "error"}>{outcome.message}</Alert> : null}
      <Form
        method="post"
        noValidate
        onSubmit={hydrated ? onSubmit : undefined}
        className="flex max-w-md flex-col gap-4"
        key={formKey}
      >
        <input type="hidden" name="intent" value="add" />
        <Field
          label="Name for this passkey"
          name="name"
          required
          maxLength={PASSKEY_NAME_MAX}
          defaultValue={suggestedName}
          hint="So you can tell your passkeys apart, e.g. “My phone”."
          error={outcome?.field ? outcome.message : undefined}
        />
        <button
          type="submit"
          className="btn btn-primary disabled:cursor-not-allowed disabled:opacity-60"
          disabled={busy}
        >
          {busy ? "Waiting for your device…" : "Add a passkey"}
        </button>
      </Form>
    </section>
  );
}
