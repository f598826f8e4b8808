import { data } from "react-router";
import { WelcomeSchema } from "./club-facts.form";
import { currentFacts, historyOf, saveFacts } from "./club-facts.server";
import { restoreVersion } from "./restore.server";
import { formattedTextHtml } from "~/lib/formatted-text.server";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/**
 * The managers' page for the home page's welcome story (routes/staff/club/welcome.tsx): one
 * formatted text (`text`), a preview as members read it, and the history.
 */

export type WelcomeAnswer = { ok?: string; message?: string; errors?: FieldErrors; text?: string; preview?: string };

export async function loadWelcomePage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("welcome"), historyOf("welcome")]);
  return { version, text: content, history };
}

function checked(fields: FormValues) {
  const text = fields.text ?? "";
  const parsed = WelcomeSchema.safeParse(text);
  return parsed.success
    ? ({ ok: true, text: parsed.data } as const)
    : ({
        ok: false,
        answer: data<WelcomeAnswer>({ errors: { text: parsed.error.issues[0]!.message }, text }, { status: 400 }),
      } as const);
}

/** "Preview": the text as members will read it, the form kept as typed. */
export function previewWelcome(fields: FormValues) {
  const text = checked(fields);
  if (!text.ok) return text.answer;
  return data<WelcomeAnswer>({ text: fields.text, preview: formattedTextHtml(text.text) });
}

/** "Save the welcome": a new version, unless another manager saved one since this form was opened. */
export async function saveWelcome(fields: FormValues, actor: { id: string }) {
  const text = checked(fields);
  if (!text.ok) return text.answer;
  const outcome = await saveFacts("welcome", text.text, actor, Number(fields.version));
  if (outcome.ok) return data<WelcomeAnswer>({ ok: `Saved: the welcome is now version ${outcome.version}.` });
  if (outcome.reason === "changed-meanwhile") return data<WelcomeAnswer>({ message: outcome.message }, { status: 409 });
  return data<WelcomeAnswer>(
    { message: "The welcome could not be saved as it is.", text: fields.text },
    { status: 400 },
  );
}

export function restoreWelcome(fields: FormValues, actor: { id: string }) {
  return restoreVersion<WelcomeAnswer>("welcome", fields, actor);
}
