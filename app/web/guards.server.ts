import { data, redirect, type RouterContextProvider } from "react-router";
import { userContext } from "./request-context";
import { isDataRequest } from "./data-request";
import type { SessionUser } from "~/lib/navigation";
import { roleHasAccess, type Access } from "./access.server";

/** The signed-in member, or a redirect to the sign-in screen that returns here afterwards. */
export function requireUser(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = context.get(userContext);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

/** The signed-in member if their role grants `access`: else to / for a page, 403 for anything else. */
export function requireAccess(
  context: Readonly<RouterContextProvider>,
  request: Request,
  access: Exclude<Access, "anyone">,
): SessionUser {
  const user = requireUser(context, request);
  if (!roleHasAccess(user.role, access)) {
    if (request.method === "GET" && !isDataRequest(request)) throw redirect("/");
    throw data("Forbidden", { status: 403 });
  }
  return user;
}

export function optionalUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(userContext);
}
