import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * True when `pid` no longer runs: `kill(pid, 0)` gives ESRCH, or the process is a zombie. The
 * zombie case matters in containers whose PID 1 never reaps orphans: a SIGKILLed grandchild is
 * dead but stays in the process table, where `kill(pid, 0)` still succeeds.
 */
export async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name, is the state.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch (error) {
    // On Linux a vanished /proc entry means the process went away in between; elsewhere there is no /proc to ask.
    return process.platform === 'linux' && (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Polls `isGone` until it holds or `limitMs` passes; returns the last answer. */
export async function waitUntilGone(pid: number, limitMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await isGone(pid)) return true;
    await sleep(20);
  }
  return isGone(pid);
}

/** Reads a pid a test script wrote, polling until the file has one (bounded). */
export async function readPidFile(file: string, limitMs = 5_000): Promise<number> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const pid = Number.parseInt(text.trim(), 10);
    if (Number.isInteger(pid) && pid > 0 && text.endsWith('\n')) return pid;
    await sleep(20);
  }
  throw new Error(`no pid appeared in ${file} within ${limitMs} ms`);
}

/** Cleanup for processes a test left running on purpose (a background child, a kill that was faked). */
export function killQuietly(pid: number, group = false): void {
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
