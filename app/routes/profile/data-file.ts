import { Readable } from "node:stream";
import { data } from "react-router";
import type { Route } from "./+types/data-file";
import { requireAccess } from "~/web/guards.server";
import { ownExportFile } from "~/features/member-data/member-data.server";
import { openFile } from "~/platform/storage/storage.server";

/** A prepared copy of a member's data, for that member only; anyone else (and an expired copy) gets 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = requireAccess(context, request, "member");
  const file = await ownExportFile(member.id, params.id);
  const stored = file ? await openFile(file.fileKey) : null;
  if (!file || !stored) throw data("Not found", { status: 404 });
  const name = `hopewell-data-${file.createdAt.toISOString().slice(0, 10)}.zip`;
  return new Response(Readable.toWeb(stored.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(stored.size),
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
