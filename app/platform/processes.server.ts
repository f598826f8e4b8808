import fs from "node:fs";
import os from "node:os";

/**
 * What this machine says of another process, for the files processes leave for each other (the
 * data directory's lock, backup working folders, upload spool files): whether it still runs, is
 * being torn down, or has ended, whoever owns it.
 */

/** Whether a process with this pid runs on this machine (whoever owns it); a zombie has ended. */
export function processIsAlive(pid: number): boolean {
  return processState(pid) !== "ended";
}

/** This machine's name as it goes into the name of a file a process leaves for others to judge: letters, digits, dots and underscores. */
export function hostTag(): string {
  return (
    os
      .hostname()
      .replace(/[^A-Za-z0-9.]/g, "_")
      .slice(0, 64) || "host"
  );
}

/** The kernel's flag on a process that is exiting (include/linux/sched.h): it runs no code of its own any more. */
const PF_EXITING = 0x4;

/**
 * What a line of /proc/<pid>/stat says of its process: "ended" for a zombie (killed, its files
 * closed and memory freed, waiting only for its parent to read its exit status, which a parent
 * may never do), "exiting" while the kernel tears it down, else "running".
 */
export function stateFromStat(stat: string): "running" | "exiting" | "ended" {
  // The command name, in parentheses, may itself hold spaces and parentheses: the fields follow the last one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [state, flags] = [fields[0], Number(fields[6])];
  if (state === "Z" || state === "X" || state === "x") return "ended";
  return Number.isInteger(flags) && (flags & PF_EXITING) !== 0 ? "exiting" : "running";
}

/** What reading /proc/<pid>/stat gave: its line, or the error's code. */
export type StatRead = { text: string } | { code: string | undefined };

/**
 * The state of a pid kill(pid, 0) answered for: `killRefused` when it said EPERM (the process
 * exists and is another user's), `stat` what its /proc line read gave, `procMounted` whether this
 * machine has a /proc to ask at all.
 */
export function judgeProcess(
  killRefused: boolean,
  stat: StatRead,
  procMounted: boolean,
): "running" | "exiting" | "ended" {
  if ("text" in stat) return stateFromStat(stat.text);
  // Another user's process under /proc's hidepid is hidden there though it runs: the kernel's
  // EPERM is the proof it exists, and a live holder must never be taken for a dead one.
  if (killRefused) return "running";
  // Signalled a moment ago, and gone since.
  if (stat.code === "ENOENT" && procMounted) return "ended";
  // No /proc to ask (not Linux): the signal reached it.
  return "running";
}

/** What the kernel says of a pid, whoever owns it: "ended" also for no such process. */
export function processState(pid: number): "running" | "exiting" | "ended" {
  // 0 and negative numbers name process groups, and signalling one would reach this process's own.
  if (!Number.isInteger(pid) || pid <= 0) return "ended";
  let killRefused = false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "ended";
    killRefused = true;
  }
  let stat: StatRead;
  try {
    stat = { text: fs.readFileSync(`/proc/${pid}/stat`, "utf8") };
  } catch (error) {
    stat = { code: (error as NodeJS.ErrnoException).code };
  }
  return judgeProcess(killRefused, stat, fs.existsSync("/proc/self/stat"));
}
