import type { FieldErrors } from "./kernel";

/**
 * A form's mistakes shown by a page's own script, without React: the same markup the server
 * draws for them (copied from the page's FormErrorTemplates), the same ids, and the same
 * `aria-invalid` and `aria-describedby` on the inputs.
 */

function fromTemplate(name: string): HTMLElement | null {
  const template = document.querySelector<HTMLTemplateElement>(`template[data-template="${name}"]`);
  const element = template?.content.firstElementChild?.cloneNode(true);
  return element instanceof HTMLElement ? element : null;
}

/** Puts each field's error under it (Field's `data-field` box) and clears those it no longer has. */
export function showFieldErrors(form: HTMLFormElement, errors: FieldErrors) {
  for (const input of form.querySelectorAll<HTMLInputElement>("input[id][name]")) {
    const errorId = `${input.id}-error`;
    document.getElementById(errorId)?.remove();
    const describedBy = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorId);
    const error = errors[input.name];
    const paragraph = error ? fromTemplate("field-error") : null;
    if (error && paragraph) {
      paragraph.id = errorId;
      paragraph.textContent = error;
      input.closest("[data-field]")?.append(paragraph);
      describedBy.push(errorId);
      input.setAttribute("aria-invalid", "true");
    } else input.removeAttribute("aria-invalid");
    if (describedBy.length) input.setAttribute("aria-describedby", describedBy.join(" "));
    else input.removeAttribute("aria-describedby");
  }
}

/** Replaces the error messages in `box` with `message` (none when it is undefined). */
export function showErrorMessage(box: Element | null, message: string | undefined) {
  if (!box) return;
  for (const alert of box.querySelectorAll('[role="alert"]')) alert.remove();
  const alert = message ? fromTemplate("alert-error") : null;
  if (!alert) return;
  const text = alert.querySelector("p");
  if (text) text.textContent = message!;
  box.append(alert);
}
