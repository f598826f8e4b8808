import { Writable } from "node:stream";
import type { ReactNode } from "react";
// React's server renderer as published for Node.js. It writes the page in byte chunks of a few
// kilobytes, each kept here as it comes and joined once at the end. (React's build for Bun writes
// strings and cost 6-19% less of a page's CPU time, but is not published for Node.js;
// renderToString writes strings too, but does not wait for what React Router's ServerRouter
// suspends on in every page: decision 0038.)
import { renderToPipeableStream } from "react-dom/server";

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
export function renderWhole(
  element: ReactNode,
  { nonce, timeoutMs, onError }: Options,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const chunks: Uint8Array[] = [];
    let length = 0;
    const keep = (chunk: Uint8Array) => {
      chunks.push(chunk);
      length += chunk.length;
    };
    const collector = new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        keep(chunk);
        done();
      },
      writev(pieces, done) {
        for (const { chunk } of pieces) keep(chunk as Uint8Array);
        done();
      },
      final(done) {
        clearTimeout(timeout);
        resolve(joined(chunks, length));
        done();
      },
      destroy(error, done) {
        clearTimeout(timeout);
        if (error) reject(error);
        done(error);
      },
    });
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(collector);
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

function joined(chunks: Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
