import type { Writable } from "node:stream";
import type { ReactNode } from "react";
// React's server renderer in the build that hands its output over as strings. The Node build
// (react-dom/server) copies every piece of markup, a tag or an attribute at a time, into 4 KB
// byte buffers: a page of 50 KB is some 5,000 pieces, each a new view on the buffer and a call
// into the text encoder, about a millisecond of the server's time on the events page. Strings
// joined once and encoded once cost a fifth of that. Both builds are compiled from the same
// renderer and differ only in how they write; the one other difference, a hash for server
// functions' form state, is never reached without React Server Components, which the site does
// not use. tests/unit/render-whole.test.ts holds the two to the same bytes.
import { renderToPipeableStream } from "react-dom/server.bun";

const utf8 = new TextEncoder();

type Options = {
  nonce?: string;
  /** How long to wait for what the page suspends on before React gives up on it. */
  timeoutMs: number;
  /**
   * Every error React meets; `shellRendered` is false while the outermost part was still being
   * rendered (an error there also rejects the promise).
   */
  onError?: (error: unknown, shellRendered: boolean) => void;
};

/**
 * Renders `element` in full, waiting for everything it suspends on, and resolves with its HTML
 * in one buffer. Loaders have all finished before a page renders (no page defers data), so
 * streaming the start of the page earlier would gain nothing, and one buffer gives the
 * response a Content-Length. Rejects when the outermost part cannot render at all.
 */
export function renderWhole(element: ReactNode, { nonce, timeoutMs, onError }: Options): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    let html = "";
    let shellRendered = false;
    // The renderer writes each piece with write(), says it is done with end(), and stops on
    // destroy(): a writable stream's contract, without a stream's cost for every piece.
    const collector = {
      write(piece: string) {
        html += piece;
        return true;
      },
      end() {
        clearTimeout(timeout);
        resolve(utf8.encode(html));
      },
      on() {},
      destroy(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
    };
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(collector as unknown as Writable);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        onError?.(error, shellRendered);
      },
    });
    const timeout = setTimeout(abort, timeoutMs);
  });
}
