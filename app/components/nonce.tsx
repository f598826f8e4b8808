import { createContext, useContext } from "react";

/** The CSP nonce, provided on the server render; browsers hide it from scripts afterwards. */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
