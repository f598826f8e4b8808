import type { ShouldRevalidateFunction } from "react-router";

/**
 * For pages whose action refuses with 409 when the page is out of date (new photos arrived,
 * someone else took the entry, a form's one-time key was spent): the page's data is read again
 * then, so staff see what changed and the forms carry fresh keys. React Router skips that after
 * an answer of 400 or more unless asked.
 */
export const revalidateAfterConflict: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || actionStatus === 409;
