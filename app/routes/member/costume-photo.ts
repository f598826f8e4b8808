import type { Route } from "./+types/costume-photo";
import { costumePhotoResponse } from "~/features/costume/costume-files.server";
import { requireAccess } from "~/web/guards.server";

/** A costume photo as stored (encoded again, without metadata): its owner, cast and managers only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = requireAccess(context, request, "member");
  return costumePhotoResponse(viewer, params.id, "photo");
}
