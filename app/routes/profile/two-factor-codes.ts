import { data, redirect } from "react-router";
import type { Route } from "./+types/two-factor-codes";
import { checkForm, readForm } from "~/web/forms/kernel";
import { BackupCodesDownloadForm } from "~/features/two-factor/two-factor.form";
import { requireAccess } from "~/web/guards.server";

/**
 * The backup codes just shown on /profile/two-factor, as a text file. The page posts back the
 * codes it shows (a plain form: no JavaScript needed), so they are still shown only once: the
 * server keeps no readable copy to hand out later.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  const parsed = checkForm(BackupCodesDownloadForm, await readForm(request));
  if (!parsed.ok) throw data("These are not backup codes.", { status: 400 });
  const text = [
    "Hopewell members' site: two-factor backup codes",
    "",
    "Each code signs you in once, instead of a code from your authenticator app.",
    "Keep this file somewhere safe, away from your phone.",
    "",
    ...parsed.data.codes,
    "",
  ].join("\r\n");
  return new Response(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": 'attachment; filename="hopewell-backup-codes.txt"',
      "Cache-Control": "private, no-store",
    },
  });
}

/** Nothing to show here without the posted codes. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  throw redirect("/profile/two-factor");
}
