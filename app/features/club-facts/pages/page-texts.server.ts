import { data } from "react-router";
import type { z } from "zod";
import { currentFacts, historyOf, saveFacts } from "../club-facts.server";
import type { ClubFacts } from "../kinds";
import { restoreVersion } from "../restore.server";
import { formattedTextHtml } from "~/lib/formatted-text.server";
import type { FieldErrors, FormValues } from "~/web/forms/kernel";

/**
 * The managers' pages for a public page's own words (the home page's welcome, the location
 * page's sections): each text a field of one form, in formatted text, with a preview of each as
 * members will read it, a save that makes a new version, and the history to bring one back.
 */

/** The kinds that are a page's formatted texts. */
type TextsKind = "welcome" | "locations";

export type PageTexts<K extends TextsKind> = {
  kind: K;
  /** What the messages call it: "the welcome". */
  name: string;
  /** The form's fields, one for each text, in the page's order. */
  fields: readonly string[];
  schema: z.ZodType<ClubFacts[K]>;
  /** A version's texts as the form's fields, and the fields as a version. */
  toFields: (content: ClubFacts[K]) => Record<string, string>;
  fromFields: (texts: Record<string, string>) => unknown;
};

/** What the page answers: a field's message beside it, what was typed, and each text previewed. */
export type PageTextsAnswer = {
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  /** What was typed, kept after a refusal or a preview (the form starts again from the saved texts otherwise). */
  texts?: Record<string, string>;
  /** Each text as members will read it, made by formattedTextHtml: only the safe subset. */
  preview?: Record<string, string>;
};

export function pageTextsEditor<K extends TextsKind>(page: PageTexts<K>) {
  const typed = (fields: FormValues) => Object.fromEntries(page.fields.map((field) => [field, fields[field] ?? ""]));

  function checked(fields: FormValues) {
    const texts = typed(fields);
    const parsed = page.schema.safeParse(page.fromFields(texts));
    if (parsed.success) return { ok: true, content: parsed.data } as const;
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      // A text of its own names its field; the one text of a page is the page's first field.
      const field = typeof issue.path[0] === "string" ? issue.path[0] : page.fields[0]!;
      errors[field] ??= issue.message;
    }
    return { ok: false, answer: data<PageTextsAnswer>({ errors, texts }, { status: 400 }) } as const;
  }

  async function load() {
    const [{ version, content }, history] = await Promise.all([currentFacts(page.kind), historyOf(page.kind)]);
    return { version, texts: page.toFields(content), history };
  }

  /** "Preview": the texts as members will read them, the form kept as typed. */
  function preview(fields: FormValues) {
    const texts = checked(fields);
    if (!texts.ok) return texts.answer;
    const shown = page.toFields(texts.content);
    const html = Object.fromEntries(page.fields.map((field) => [field, formattedTextHtml(shown[field] ?? "")]));
    return data<PageTextsAnswer>({ texts: typed(fields), preview: html });
  }

  /** "Save": a new version, unless another manager saved one since this form was opened. */
  async function save(fields: FormValues, actor: { id: string }) {
    const texts = checked(fields);
    if (!texts.ok) return texts.answer;
    const outcome = await saveFacts(page.kind, texts.content, actor, Number(fields.version));
    if (outcome.ok) return data<PageTextsAnswer>({ ok: `Saved: ${page.name} is now version ${outcome.version}.` });
    if (outcome.reason === "changed-meanwhile")
      return data<PageTextsAnswer>({ message: outcome.message }, { status: 409 });
    return data<PageTextsAnswer>(
      { message: `${capitalised(page.name)} could not be saved as it is.`, texts: typed(fields) },
      { status: 400 },
    );
  }

  /** "Bring back": an earlier version saved again as the newest. */
  function restore(fields: FormValues, actor: { id: string }) {
    return restoreVersion<PageTextsAnswer>(page.kind, fields, actor);
  }

  /** The form's answer to its button (`intent`): bring back, save, or preview. */
  function answer(fields: FormValues, actor: { id: string }) {
    if (fields.intent === "restore") return restore(fields, actor);
    if (fields.intent === "save") return save(fields, actor);
    return preview(fields);
  }

  return { load, preview, save, restore, answer };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
