import { showErrorMessage } from "~/web/forms/errors-in-page";
import { signInWithPasskey } from "./passkey-browser";

const WAITING = "Waiting for your passkey…";

/**
 * The sign-in page's passkey button (PasskeySignIn.tsx, `data-passkey-sign-in` holding where
 * to go after): asks the browser for a passkey instead of posting the form, goes on with a
 * whole page load once signed in, and shows what went wrong otherwise.
 */
export function enhancePasskeySignIn(form: HTMLFormElement | null) {
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!form || !button) return;
  const label = button.textContent ?? "";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    button.textContent = WAITING;
    showErrorMessage(form, undefined);
    void signInWithPasskey(form.dataset.passkeySignIn ?? "").then((outcome) => {
      // A whole page load, so every part of the page sees the member signed in.
      if (outcome.ok) return window.location.assign(outcome.redirectTo);
      showErrorMessage(form, outcome.message);
      button.disabled = false;
      button.textContent = label;
    });
  });
}
