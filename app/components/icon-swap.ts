import type { IconName } from "./icon-shapes";

/**
 * Points the icon inside `element` (an Icon's `<use>`) at another shape of the same sprite,
 * for the scripts that change a page without React (features/accounts/password-behaviour.ts).
 */
export function swapIcon(element: Element, name: IconName) {
  const use = element.querySelector("use");
  const href = use?.getAttribute("href");
  if (!use || !href) return;
  const hash = href.indexOf("#");
  use.setAttribute("href", `${hash === -1 ? href : href.slice(0, hash)}#${name}`);
}
