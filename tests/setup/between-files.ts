import { afterAll, expect, vi } from "vitest";
import { resetConfig } from "~/platform/config.server";
import { changesAreFollowed, forgetKeptReads } from "~/platform/db/changes.server";
import { forgetMessagePacing } from "~/features/messages/deliver.server";

/**
 * Test files share their worker's modules (vitest.config.ts: isolate: false), so what a module
 * keeps in memory outlives the file that put it there. After each file, everything of the kind
 * is put back as a new process has it: the settings are read again from the environment, every
 * kept database read is dropped (the next file has a database of its own), the messages' pacing
 * starts afresh, and the clocks and spies are real again. A file that leaves a server running fails here: its kept reads would
 * follow the next file's database.
 */
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  resetConfig();
  forgetKeptReads();
  forgetMessagePacing();
  expect(changesAreFollowed(), "a server of this file still follows the database: close it in afterAll").toBe(false);
});
