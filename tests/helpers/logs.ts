import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { logger } from "~/platform/logger.server";

const stream = pino.symbols.streamSym as unknown as symbol;

/**
 * Everything the server logs (at debug level, the access log included) while the calling test
 * file runs, a line per entry: for checking that no secret (token, code, key) is ever written.
 */
export function captureLogs(): string[] {
  const captured: string[] = [];
  const target = logger as unknown as Record<symbol, unknown>;
  let savedStream: unknown;
  let savedLevel: string;
  beforeAll(() => {
    savedStream = target[stream];
    savedLevel = logger.level;
    logger.level = "debug";
    target[stream] = { write: (line: string) => captured.push(line) };
  });
  afterAll(() => {
    target[stream] = savedStream;
    logger.level = savedLevel;
  });
  return captured;
}
