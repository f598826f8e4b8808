/**
 * React Router's data requests (a client-side navigation's, a form's, a revalidation's) end in
 * `.data`, in middleware and in loaders alike: they get status codes, not page redirects, and
 * carry everything a page shows, since there is no HTML with them.
 */
export function isDataRequest(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}
