/**
 * The sign-in page's own script (routes/auth/auth.tsx draws the page; web/page-script.ts says
 * why it has no React): the password fields, the CAPTCHA that opens the form's button, the
 * form checked with the server's own schema before it is sent, and the passkey button.
 */
import { startCaptcha, type CaptchaHandle, type CaptchaSettings } from "~/components/captcha-widget";
import { enhancePasswordFields } from "~/features/accounts/password-behaviour";
import { enhancePasskeySignIn } from "~/features/passkeys/passkey-sign-in";
import { showErrorMessage, showFieldErrors } from "~/web/forms/errors-in-page";
import type { checkAuthForm } from "./auth-check";

const PLEASE_WAIT = "Please wait…";

function enhanceAuthForm(form: HTMLFormElement) {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const captchaBox = form.querySelector<HTMLElement>("[data-captcha]");
  const captchaSlot = captchaBox?.querySelector<HTMLElement>("[data-captcha-slot]");
  const hint = form.querySelector<HTMLElement>("[data-captcha-hint]");
  const messages = document.querySelector("[data-form-messages]");
  if (!button || !captchaBox || !captchaSlot) return;
  const label = button.textContent ?? "";

  // The check is fetched when the form is first touched, well before anyone can send it.
  let check: typeof checkAuthForm | undefined;
  let loading: Promise<unknown> | undefined;
  const loadCheck = () => (loading ??= import("./auth-check").then((module) => (check = module.checkAuthForm)));
  form.addEventListener("focusin", loadCheck, { once: true });
  form.addEventListener("pointerdown", loadCheck, { once: true });

  // The button opens once the CAPTCHA is solved; until then the hint under it says why.
  const onCaptcha = (solved: boolean) => {
    button.disabled = !solved;
    hint?.toggleAttribute("hidden", solved);
  };
  onCaptcha(false);
  const captcha: CaptchaHandle = startCaptcha(
    captchaSlot,
    JSON.parse(captchaBox.dataset.captcha ?? "{}") as CaptchaSettings,
    onCaptcha,
    captchaBox.querySelector<HTMLElement>("[data-captcha-loading]"),
  );

  form.addEventListener("submit", (event) => {
    if (!check) {
      // Sent before the check arrived (a keyboard's Enter on a form filled by the browser):
      // wait for it, then send again through this same handler.
      event.preventDefault();
      const submitter = event.submitter;
      void loadCheck().then(
        () => form.requestSubmit(submitter),
        () => form.submit(),
      );
      return;
    }
    const { errors, message } = check(form);
    showFieldErrors(form, errors);
    showErrorMessage(messages, message);
    if (Object.keys(errors).length > 0) {
      event.preventDefault();
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    button.disabled = true;
    button.textContent = PLEASE_WAIT;
  });

  // Back to this page from the next one (the browser's page cache): the solution was spent.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    button.textContent = label;
    captcha.reset();
  });
}

enhancePasswordFields();
const form = document.querySelector<HTMLFormElement>("form[data-auth-form]");
if (form) enhanceAuthForm(form);
enhancePasskeySignIn(document.querySelector<HTMLFormElement>("form[data-passkey-sign-in]"));
