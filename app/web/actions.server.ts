import { data, isRouteErrorResponse, type UNSAFE_DataWithResponseInit } from "react-router";
import { logger } from "~/platform/logger.server";
import type { FieldErrors, FormValues } from "./forms/kernel";
import { MESSAGES } from "./forms/messages";

/** What an action answers: its page's data, with a status. */
export type ActionAnswer<D> = UNSAFE_DataWithResponseInit<D>;

/**
 * The last step of every action: call the domain. Answers the domain gives on purpose (a
 * refusal, "no longer exists") are returned by `work` itself; anything it throws is a failure
 * the member cannot fix (the database is down, say). That is logged once, as "`what` failed",
 * and answered 500 with `failure`: the page's own message (docs/product.md#messages) and the values the
 * member typed, so the form comes back filled in and nothing typed is lost.
 */
export async function failSafely<D>(
  what: string,
  failure: NoInfer<D>,
  work: () => Promise<ActionAnswer<D>>,
): Promise<ActionAnswer<D>> {
  try {
    return await work();
  } catch (error) {
    // A redirect or a refusal thrown on purpose is an answer, not a failure.
    if (error instanceof Response || isRouteErrorResponse(error)) throw error;
    logger.error({ err: error }, `${what} failed`);
    return data(failure, { status: 500 });
  }
}

/** What a form's page is answered: a message, each field's error, and the values typed to show again. */
export type FormAnswer = { message?: string; errors?: FieldErrors; values?: FormValues };

/**
 * The answer to a form its schema refused (with status 400): the site's "fill in every required
 * field" message above the form, each field's own message beside it, and what was typed.
 */
export function formRefusal(form: { errors: FieldErrors; values: FormValues }): FormAnswer {
  return { message: MESSAGES.requiredAll, errors: form.errors, values: form.values };
}
