import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { judgeProcess } from "~/platform/processes.server";

/**
 * Whether the pid in a lock (the data directory's, a backup's or an upload's leftovers) still runs,
 * from what kill(pid, 0) answered and what /proc/<pid>/stat gave. A live holder taken for a dead
 * one would let two processes write one embedded database.
 */
describe("judging a lock's holder", () => {
  const running = { text: fs.readFileSync("/proc/self/stat", "utf8") };

  it("takes another user's process hidden from /proc (hidepid) as running: the kernel said it exists", () => {
    expect(judgeProcess(true, { code: "ENOENT" }, true)).toBe("running");
    expect(judgeProcess(true, { code: "EACCES" }, true)).toBe("running");
  });

  it("takes a process of this user whose /proc entry went since it was signalled as ended", () => {
    expect(judgeProcess(false, { code: "ENOENT" }, true)).toBe("ended");
  });

  it("takes a signalled process as running where there is no /proc to ask", () => {
    expect(judgeProcess(false, { code: "ENOENT" }, false)).toBe("running");
    expect(judgeProcess(true, { code: "ENOENT" }, false)).toBe("running");
  });

  it("reads the state from /proc when it can, whoever owns the process", () => {
    expect(judgeProcess(false, running, true)).toBe("running");
    expect(judgeProcess(true, { text: "4242 (node) Z 1 4242 4242 0 -1 4194564 120 0 0 0" }, true)).toBe("ended");
  });
});
