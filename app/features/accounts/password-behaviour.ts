import { swapIcon } from "~/components/icon-swap";
import { PASSWORD_RULES } from "./password-rules";

/**
 * What the password fields do in the browser, written against the page's elements rather than
 * React state, so that the pages React draws (PasswordField.tsx, NewPasswordFields.tsx) and the
 * sign-in page, which the server alone draws (routes/auth/auth.page.ts), run the same code.
 */

/** Shows or hides the password behind a PasswordField's toggle (the input its `aria-controls` names). */
export function togglePasswordVisibility(button: HTMLElement) {
  const input = document.getElementById(button.getAttribute("aria-controls") ?? "");
  if (!(input instanceof HTMLInputElement)) return;
  const show = input.type === "password";
  input.type = show ? "text" : "password";
  button.setAttribute("aria-pressed", String(show));
  button.setAttribute("aria-label", `${show ? "Hide" : "Show"} ${button.dataset.label ?? "password"}`);
  swapIcon(button, show ? "eye-off" : "eye");
}

/** Ticks each rule of a PasswordChecklist (`list`) that `password` meets. */
export function showPasswordRules(list: Element | null, password: string) {
  if (!list) return;
  for (const item of list.querySelectorAll<HTMLElement>("li[data-rule]")) {
    const rule = PASSWORD_RULES.find((candidate) => candidate.id === item.dataset.rule);
    if (!rule) continue;
    const met = rule.test(password);
    item.dataset.met = String(met);
    item.classList.toggle("text-sage", met);
    item.classList.toggle("text-dust", !met);
    swapIcon(item, met ? "check" : "x");
    const status = item.querySelector("[data-rule-status]");
    if (status) status.textContent = met ? " (done)" : " (not yet)";
  }
}

/**
 * The same behaviour for a page without React: one listener each for every toggle and every
 * new password field (`data-password-rules` names its checklist) the page holds.
 */
export function enhancePasswordFields(root: Document | HTMLElement = document) {
  root.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-password-toggle]") : null;
    if (button) togglePasswordVisibility(button);
  });
  root.addEventListener("input", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.dataset.passwordRules)
      showPasswordRules(document.getElementById(input.dataset.passwordRules), input.value);
  });
}
