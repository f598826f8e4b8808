import { decodeHTML } from "entities";
import { parseDocument } from "htmlparser2";
import { APPLICATION_TEXT_QUESTIONS } from "~/game/application";

/** A complete, valid application as a form would send it. */
export function validApplication(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    discordTag: "settler_1877",
    rolePreference: "player",
    ...Object.fromEntries(
      APPLICATION_TEXT_QUESTIONS.map((q, i) => [
        q.key,
        `Answer ${i + 1}: I have thought about ${q.label.toLowerCase()}`,
      ]),
    ),
    ...overrides,
  };
}

/** Posts a form to the test server as a page of our own would. */
export function postForm(baseUrl: string, path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(baseUrl + path, {
    method: "POST",
    headers: {
      Origin: baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/**
 * The fields of the page's forms as a browser would send them unchanged, from its HTML: inputs'
 * values, text areas' text, ticked boxes as "on" (the first of a name wins, as a form's order has it).
 */
export function formFieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const walk = (node: { name?: string; attribs?: Record<string, string>; children?: unknown[] }) => {
    const name = node.attribs?.name;
    if (name && node.name === "input") {
      const type = node.attribs?.type;
      if (type === "checkbox" || type === "radio") {
        if (node.attribs && "checked" in node.attribs) fields[name] ??= node.attribs.value ?? "on";
      } else fields[name] ??= node.attribs?.value ?? "";
    }
    // A text area's text is read with its character references decoded, as a browser does (the parser leaves them).
    if (name && node.name === "textarea")
      fields[name] = decodeHTML((node.children as { data?: string }[]).map((child) => child.data ?? "").join(""));
    if (name && node.name === "select") {
      const options = (node.children ?? []).filter((c) => (c as { name?: string }).name === "option") as {
        attribs?: Record<string, string>;
      }[];
      const chosen = options.find((o) => o.attribs && "selected" in o.attribs) ?? options[0];
      fields[name] ??= chosen?.attribs?.value ?? "";
    }
    for (const child of (node.children ?? []) as (typeof node)[]) walk(child);
  };
  walk(parseDocument(html, { decodeEntities: true }) as never);
  return fields;
}
