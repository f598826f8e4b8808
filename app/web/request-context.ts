import { createContext } from "react-router";
import type { SessionUser } from "~/lib/navigation";

/** Facts about the current request that the HTTP server hands to the app. */
export type RequestInfo = {
  /** The CSP nonce for this response's inline scripts. Empty in development. */
  nonce: string;
  /** The client's address: the socket's, or the proxy's header when TRUST_PROXY is set. */
  clientAddress: string;
  /** The matched route's pattern, set by the access middleware, for the server's access log. */
  route?: string;
};

export const requestInfoContext = createContext<RequestInfo>({ nonce: "", clientAddress: "unknown" });

/** The signed-in member for this request, set by the access middleware before any loader runs. */
export const userContext = createContext<SessionUser | null>(null);
