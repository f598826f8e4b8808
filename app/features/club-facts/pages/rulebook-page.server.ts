import fs from "node:fs";
import { data } from "react-router";
import { currentFacts, historyOf, saveFacts, type SaveOutcome } from "../club-facts.server";
import { restoreVersion } from "../restore.server";
import { RULEBOOK_MAX_BYTES, RULEBOOK_MESSAGES, type ClubRulebook } from "./rulebook.facts";
import { formatBytes } from "~/lib/bytes";
import { config } from "~/platform/config.server";
import { removeFile, rulebookKey, saveFile } from "~/platform/storage/storage.server";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { readForm, type FieldErrors, type FormValues } from "~/web/forms/kernel";
import { readMultipartForm } from "~/web/forms/multipart.server";

/**
 * The managers' page for the rulebook (routes/staff/club/rulebook.tsx): the built-in one, a link,
 * or a PDF uploaded here, each saved as a new version; the history brings an earlier one back.
 * An uploaded PDF is judged by its content, kept by the storage module under rulebook/<random>.pdf,
 * and never removed while a version names it (platform/storage/sweep.server.ts), so any version
 * can be brought back with its file.
 */

export type RulebookAnswer = { ok?: string; message?: string; errors?: FieldErrors; url?: string };

/** What the built-in rulebook is on this site: the operator's settings come first. */
export type BuiltInRulebook = "shipped" | "operator's PDF" | "operator's address";

/** The rulebook shown now, described for the page. */
export type RulebookNow =
  | { source: "built-in"; builtIn: BuiltInRulebook }
  | { source: "link"; url: string }
  | { source: "file"; fileName: string; size: string };

function described(content: ClubRulebook): RulebookNow {
  if (content.source === "link") return { source: "link", url: content.url };
  if (content.source === "file") return { source: "file", fileName: content.fileName, size: formatBytes(content.size) };
  const { embedUrl, pdfPath } = config().rulebook;
  return { source: "built-in", builtIn: embedUrl ? "operator's address" : pdfPath ? "operator's PDF" : "shipped" };
}

export async function loadRulebookPage() {
  const [{ version, content }, history] = await Promise.all([currentFacts("rulebook"), historyOf("rulebook")]);
  return { version, now: described(content), history };
}

const answer = (body: RulebookAnswer, status = 200): ActionAnswer<RulebookAnswer> => data(body, { status });

/** A save's outcome as the page says it; `refused` is what a version the schema refuses gets. */
function saved(outcome: SaveOutcome, refused: RulebookAnswer) {
  if (outcome.ok) return answer({ ok: `Saved: the rulebook is now version ${outcome.version}.` });
  if (outcome.reason === "invalid") return answer(refused, 400);
  return answer({ message: outcome.message }, 409);
}

/** A file's name as a person reads it: no folders, no control characters. */
function shownName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join("");
  return printable.slice(0, 200) || "rulebook.pdf";
}

const fileRefused = (status: 400 | 413) => answer({ errors: { file: RULEBOOK_MESSAGES.file } }, status);

/** "Upload the PDF": stored first, then saved as a version; a file no version names is not kept. */
async function uploadRulebook(request: Request, actor: { id: string }) {
  const form = await readMultipartForm(request, {
    fileField: "file",
    maxFileBytes: RULEBOOK_MAX_BYTES,
    maxFields: 4,
    maxFieldBytes: 1024,
  });
  if (!form.ok) return fileRefused(form.problem === "too-large" ? 413 : 400);
  try {
    if (form.values.intent !== "upload") return answer({ message: "That action is not available here." }, 400);
    const file = form.file;
    if (!file || file.size === 0) return fileRefused(400);
    // Loaded with the first upload: about 10 MB an idle server need not hold.
    const sniffed = await (await import("file-type")).fileTypeFromFile(file.path);
    if (sniffed?.mime !== "application/pdf") return fileRefused(400);
    const key = rulebookKey();
    await saveFile(key, fs.createReadStream(file.path), { size: file.size, contentType: "application/pdf" });
    let outcome: SaveOutcome;
    try {
      const content = { source: "file", key, fileName: shownName(file.name), size: file.size };
      outcome = await saveFacts("rulebook", content, actor, Number(form.values.version));
    } catch (error) {
      await removeFile(key);
      throw error;
    }
    if (!outcome.ok) await removeFile(key);
    return saved(outcome, { errors: { file: RULEBOOK_MESSAGES.file } });
  } finally {
    // Stored by now, or refused: the copy the upload was written to goes.
    await form.file?.discard();
  }
}

/** "Save the link". */
async function linkRulebook(fields: FormValues, actor: { id: string }) {
  const url = fields.url ?? "";
  const outcome = await saveFacts("rulebook", { source: "link", url }, actor, Number(fields.version));
  return saved(outcome, { errors: { url: RULEBOOK_MESSAGES.url }, url });
}

/** The page's forms: an upload (multipart), or a link, the built-in rulebook, or bringing a version back. */
export async function answerRulebookForm(request: Request, actor: { id: string }) {
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data"))
    return failSafely<RulebookAnswer>("saving an uploaded rulebook", { message: RULEBOOK_MESSAGES.failed }, () =>
      uploadRulebook(request, actor),
    );
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreVersion<RulebookAnswer>("rulebook", fields, actor);
  if (fields.intent === "link") return linkRulebook(fields, actor);
  if (fields.intent === "built-in")
    return saved(await saveFacts("rulebook", { source: "built-in" }, actor, Number(fields.version)), {});
  return answer({ message: "That action is not available here." }, 400);
}
