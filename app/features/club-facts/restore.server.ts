import { data } from "react-router";
import { CLUB_FACT_MESSAGES } from "./club-facts.form";
import { restoreFacts } from "./club-facts.server";
import type { ClubFactKind } from "~/platform/db/schema";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/** What a club-fact page answers to "Bring back" (the fields `restore` and `version`). */
export type RestoreAnswer = { ok?: string; message?: string; errors?: FieldErrors };

/** "Bring back": an earlier version of `kind` saved again as the newest. */
export async function restoreVersion<A extends RestoreAnswer = RestoreAnswer>(
  kind: ClubFactKind,
  fields: FormValues,
  actor: { id: string },
) {
  const version = Number(fields.restore);
  if (!Number.isInteger(version) || version < 0)
    return data<A>({ message: CLUB_FACT_MESSAGES.noSuchVersion } as A, { status: 400 });
  const outcome = await restoreFacts(kind, version, actor, Number(fields.version));
  if (outcome.ok) return data<A>({ ok: `Version ${version} is back, saved as version ${outcome.version}.` } as A);
  if ("message" in outcome)
    return data<A>({ message: outcome.message } as A, { status: outcome.reason === "no-such-version" ? 404 : 409 });
  return data<A>({ message: CLUB_FACT_MESSAGES.noSuchVersion } as A, { status: 400 });
}
