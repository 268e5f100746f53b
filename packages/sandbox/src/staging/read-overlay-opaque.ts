import { spawnSync } from 'node:child_process';
import { SandboxError } from '../policy/sandbox-error.js';

/** Folders asked about per run of the helper (an argv of a few hundred kilobytes at most). */
const batch = 1000;

/**
 * Which upper-layer folders overlayfs marked opaque (`user.overlay.opaque` = `y`: the command
 * removed the folder and made it anew). Node has no extended-attribute call, so the stage helper
 * answers (`helper ? <folder>…`: one `y` or `n` per folder). Fails closed: a helper that cannot
 * answer is an error, never "nothing is opaque" (which would leave removed files on the host).
 */
export function readOverlayOpaque(helperPath: string, folders: readonly string[]): ReadonlySet<string> {
  const opaque = new Set<string>();
  for (let start = 0; start < folders.length; start += batch) {
    const part = folders.slice(start, start + batch);
    const run = spawnSync(helperPath, ['?', ...part], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    if (run.status !== 0 || run.stdout.length !== part.length || /[^yn]/.test(run.stdout)) {
      throw new SandboxError(`could not read which staged folders are opaque (the stage helper answered ${JSON.stringify(run.stdout.slice(0, 40))}, status ${String(run.status)}${run.stderr ? `: ${run.stderr.trim()}` : ''})`);
    }
    part.forEach((folder, index) => {
      if (run.stdout[index] === 'y') opaque.add(folder);
    });
  }
  return opaque;
}
