import { useState, type MouseEvent } from "react";
import { Form } from "react-router";
import { Alert } from "~/components/ui/Alert";
import { signInWithPasskey } from "./passkey-browser";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * "Sign in with a passkey" on /auth: no email, password or CAPTCHA; the browser offers the
 * passkeys it holds for this site. Without JavaScript the button posts to /auth, which
 * answers that passkeys need it (routes/auth/auth.tsx), so the button is never a dead end.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function onClick(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await signInWithPasskey(redirectTo);
    if (outcome.ok) {
      // A whole page load, so every part of the page sees the member signed in.
      window.location.assign(outcome.redirectTo);
      return;
    }
    setMessage(outcome.message);
    setBusy(false);
  }

  return (
    <Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="passkey" />
      <button type="submit" className="btn btn-secondary w-full disabled:cursor-not-allowed disabled:opacity-60" onClick={hydrated ? onClick : undefined} disabled={busy}>
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>
      {message ? <Alert kind="error">{message}</Alert> : null}
    </Form>
  );
}
