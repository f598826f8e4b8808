import { action as pageAction } from "./costume";

/**
 * The costume page's upload when JavaScript runs (features/costume/CostumeUploadForm.tsx): the
 * page's own action, answered in JSON so the page can show the upload's progress. A photo saved
 * leads to the page again; that address is answered as `to` for the page to go to, because the
 * browser's request would follow a redirect itself and fetch the whole page.
 */
// The page's action's own arguments: this route is only another address for it.
export async function action(args: Parameters<typeof pageAction>[0]) {
  try {
    return await pageAction(args);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      return Response.json({ to: thrown.headers.get("Location") });
    }
    throw thrown;
  }
}
