import { readdirSync, readFileSync } from 'node:fs';

/**
 * Host processes whose command line contains `token` and that are alive — read from `/proc`, not
 * with `kill(pid, 0)`, which a zombie (dead, not yet reaped) still passes. A zombie's command line
 * is empty, and its state is `Z`; both are checked.
 */
export function livingProcessesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(token)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') found.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/**
 * Polls `condition` every 50 ms, at most `attempts` times: a bound for teardown the kernel finishes
 * asynchronously (a SIGKILLed PID namespace), never a timing assertion.
 */
export async function eventually(condition: () => boolean, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}
