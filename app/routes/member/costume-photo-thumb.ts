import type { Route } from "./+types/costume-photo-thumb";
import { costumePhotoResponse } from "~/features/costume/costume-files.server";
import { requireAccess } from "~/web/guards.server";

/** A costume photo's thumbnail (a small JPEG made at upload): its owner, cast and managers only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = requireAccess(context, request, "member");
  return costumePhotoResponse(viewer, params.id, "thumb");
}
