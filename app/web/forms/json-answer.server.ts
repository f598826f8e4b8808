import type { ActionAnswer } from "../actions.server";

/**
 * A form whose file the page's script sends (web/forms/use-upload.ts: by XMLHttpRequest, to show
 * the upload's progress) asks for its answer in JSON; without JavaScript the same form posts as a
 * plain form and gets the page. A page's route answers a post with the page, so a page without an
 * upload address of its own answers such a request from its middleware, with its action's answer
 * (routes/staff/club/rulebook.tsx).
 */
export function asksForJson(request: Request): boolean {
  return request.method === "POST" && (request.headers.get("Accept") ?? "").includes("application/json");
}

/** An action's answer (its data and status) as JSON. */
export function inJson<D>(answer: ActionAnswer<D>): Response {
  return Response.json(answer.data, { status: answer.init?.status ?? 200 });
}
