import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';

/**
 * The racing process of architecture §3.7 "Races": a separate Node process that swaps `folder`
 * between the real folder and a symbolic link (to somewhere the writer must never write) as fast
 * as it can, with plain renames — folder away to `parked`, link in, link out, folder back — until
 * the stop file appears; then it leaves the real folder in place and prints how many rounds it ran.
 * The link and then the real folder stay in place for a random 0–100 µs (plus the timer's slack) each round, so
 * the swaps land at every moment of a call (a fixed rhythm could miss a short window every time)
 * and some calls get through; it sleeps rather than spins, so on a small machine it does not
 * starve the calls it races.
 */
const flipperSource = `
const { existsSync, renameSync, writeSync } = require('node:fs');
const [folder, parked, link, stopFile] = process.argv.slice(1);
const attempt = (from, to) => { try { renameSync(from, to); return true; } catch { return false; } };
// A writer that makes folders may have made a new one at the path while the real one was parked:
// move it aside (it stays in the workspace) so the real folder comes back and the race goes on.
const restore = (round) => attempt(parked, folder) || (attempt(folder, folder + '.made-meanwhile-' + round) && attempt(parked, folder));
const pause = new Int32Array(new SharedArrayBuffer(4));
let rounds = 0;
for (;;) {
  attempt(folder, parked);
  attempt(link, folder);
  Atomics.wait(pause, 0, 0, Math.random() * 0.1);
  attempt(folder, link);
  restore(rounds);
  Atomics.wait(pause, 0, 0, Math.random() * 0.1);
  rounds += 1;
  if ((rounds & 255) === 0 && existsSync(stopFile)) break;
}
attempt(folder, link);
restore(rounds);
writeSync(1, String(rounds));
`;

export interface FolderFlipper {
  /** Stops the loop and resolves with the rounds it ran; the real folder is back at its path. */
  stop(): Promise<number>;
}

/** Starts flipping; `link` must already be a symbolic link, `folder` the real folder. */
export async function startFolderFlipper(paths: { readonly folder: string; readonly parked: string; readonly link: string; readonly stopFile: string }): Promise<FolderFlipper> {
  const child = spawn(process.execPath, ['-e', flipperSource, paths.folder, paths.parked, paths.link, paths.stopFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  // The loop is running once the process is: no handshake needed, the first swaps come within milliseconds.
  await new Promise<void>((resolve, reject) => {
    child.on('spawn', resolve);
    child.on('error', reject);
  });
  return {
    async stop() {
      await writeFile(paths.stopFile, '');
      const code = await exited;
      if (code !== 0) throw new Error(`the folder flipper failed (${String(code)}): ${output}`);
      return Number(output);
    },
  };
}
