import { Readable } from "node:stream";
import { data } from "react-router";
import type { SessionUser } from "~/lib/navigation";
import { costumePhotoFor } from "./costumes.server";
import { openFile } from "~/platform/storage/storage.server";

/**
 * A costume photo or its thumbnail as a response, for its owner, cast and managers only; anyone
 * else gets 404. The type is the one judged at upload (and the file was encoded again by the
 * site), and the CSP sandbox and nosniff stop it from ever running as a page of this site.
 */
export async function costumePhotoResponse(
  viewer: SessionUser,
  id: string,
  variant: "photo" | "thumb",
): Promise<Response> {
  const file = await costumePhotoFor(viewer, id, variant);
  const stored = file ? await openFile(file.key) : null;
  if (!file || !stored) throw data("Not found", { status: 404 });
  const extension = file.type === "image/png" ? "png" : "jpg";
  return new Response(Readable.toWeb(stored.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": file.type,
      "Content-Length": String(stored.size),
      "Content-Disposition": `inline; filename="costume-${variant === "thumb" ? "thumbnail" : "photo"}.${extension}"`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}
