import { Readable } from "node:stream";
import { data } from "react-router";
import type { Route } from "./+types/research-file";
import { requireAccess } from "~/web/guards.server";
import { researchFileFor } from "~/features/submissions/research.server";
import { openFile } from "~/platform/storage/storage.server";

/**
 * A research file, for its author, cast and managers only; anyone else gets 404.
 * The type is the one sniffed at upload; the CSP sandbox and nosniff stop a file
 * from ever running as a page of this site, and PDFs are downloaded, not opened here.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = requireAccess(context, request, "member");
  const file = await researchFileFor(viewer, params.id);
  const stored = file ? await openFile(file.fileKey) : null;
  if (!file || !stored) throw data("Not found", { status: 404 });
  const disposition = file.fileType === "application/pdf" ? "attachment" : "inline";
  const asciiName = file.fileName.replace(/[^\x20-\x7e]/g, "_");
  return new Response(Readable.toWeb(stored.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": file.fileType,
      "Content-Length": String(stored.size),
      "Content-Disposition": `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}
