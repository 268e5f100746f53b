/**
 * Process groups with a spawn still in flight. If this Node process exits normally while calls
 * are running, their groups are SIGKILLed — the closest thing to tokio's `kill_on_drop(true)`
 * (§5) that Node offers (a fatal signal to Node itself cannot be intercepted).
 */
const liveGroups = new Set<number>();
let hooked = false;

export function registerLiveProcessGroup(pid: number): void {
  liveGroups.add(pid);
  if (!hooked) {
    hooked = true;
    process.once('exit', killLiveProcessGroups);
  }
}

export function unregisterLiveProcessGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** SIGKILLs every registered group; failures are ignored because the process is going away. */
export function killLiveProcessGroups(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone, or not ours to kill: nothing more can be done while exiting.
    }
  }
  liveGroups.clear();
}
