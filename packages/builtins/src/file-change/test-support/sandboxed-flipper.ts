import { spawn } from 'node:child_process';
import { lstat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import type { BuiltinsFixture } from '../../test-support/builtins-fixture.js';

/**
 * The attacker of the race tests (architecture §3.7): whatever else changes the tree while the file
 * tools work — another session's staged writes being applied, the user's own tools. Under staged
 * writes a sandboxed command cannot change the host while it runs, so the swapping runs on the
 * host: it swaps each `folder` between the real folder and a symbolic link to `linkTarget` (the
 * home) as fast as it can, with plain renames, until `stopFile` appears. A prompt-injected model's
 * own attempt, one `bash` call through the real bubblewrap sandbox, tries to hard-link a home
 * file into the workspace first. Random sleeps with the link in place (0–100 µs) and then the real
 * folder (0–100 µs, or 0–5 ms one round in ten) make the swaps land at every moment of a call
 * — in bursts and in single swaps, so some calls also get through — and give the CPU back: on a
 * small machine a spinning loop would mostly starve the calls it races.
 */
const flipperSource = String.raw`
import os, random, sys, time
folder, parked, link, stop = sys.argv[1:]
def attempt(source, target):
    try:
        os.rename(source, target)
        return True
    except OSError:
        return False
def restore(round):
    # A write that makes folders may have made a new one at the path while the real one was
    # parked: move it aside (it stays in the workspace) so the real folder comes back.
    if not attempt(parked, folder) and attempt(folder, folder + '.made-meanwhile-%d' % round):
        attempt(parked, folder)
rounds = 0
while True:
    attempt(folder, parked)
    attempt(link, folder)
    time.sleep(random.random() * 0.0001)
    attempt(folder, link)
    restore(rounds)
    time.sleep(random.random() * (0.0001 if random.random() < 0.9 else 0.005))
    rounds += 1
    if rounds % 256 == 0 and os.path.exists(stop):
        break
attempt(folder, link)
restore(rounds)
print('rounds %s %d' % (folder, rounds))
`;

export interface SandboxedFlipper {
  /** Resolves once every loop is swapping (fails if the bash call ended first). */
  started(): Promise<void>;
  /** Stops the loops and resolves with the bash call's result (it prints `rounds <folder> <n>` per folder). */
  stop(): Promise<ToolResult>;
}

export interface FlippedFolder {
  /** Relative to the workspace. */
  readonly folder: string;
  /** Absolute: where the link points. */
  readonly linkTarget: string;
}

/** Starts one sandboxed bash call flipping every folder (one loop each, in parallel) until stopped. */
export function startSandboxedFlipper(fixture: BuiltinsFixture, folders: readonly FlippedFolder[], stopFile: string, hardLinkAttempt: { readonly from: string; readonly to: string }): SandboxedFlipper {
  const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;
  const loops = folders.map(
    ({ folder, linkTarget }) =>
      `ln -s ${quote(linkTarget)} ${quote(`${folder}.link`)} && python3 -c "$FLIPPER" ${quote(folder)} ${quote(`${folder}.parked`)} ${quote(`${folder}.link`)} ${quote(stopFile)} &`,
  );
  // The model's attempt, in the sandbox: a hard link to a home file.
  const hardLink = fixture.call('bash', { command: `ln ${quote(hardLinkAttempt.from)} ${quote(hardLinkAttempt.to)} 2>&1 && echo 'hard link made' || echo 'hard link refused'` });
  const command = [`FLIPPER=${quote(flipperSource)}`, ...loops, 'wait'].join('\n');
  const child = spawn('/bin/bash', ['-c', command], { cwd: fixture.workspace, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const running: Promise<ToolResult> = Promise.all([
    hardLink,
    new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code))),
  ]).then(([linked, code]) => {
    const text = `${ToolResult.text(linked)}\n${output}`;
    return code === 0 ? ToolResult.success(text) : ToolResult.failure({ code: 'execution_failed', message: `${text}\n(the flipper exited ${String(code)})` });
  });
  return {
    async started() {
      // Racing once every folder has been seen as something other than the real folder.
      for (const { folder } of folders) {
        for (;;) {
          const now = await lstat(join(fixture.workspace, folder)).catch(() => undefined);
          if (now === undefined || !now.isDirectory()) break;
          const early = await Promise.race([running, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5))]);
          if (early !== undefined) throw new Error(`the flipper ended before it raced: ${ToolResult.text(early)}`);
        }
      }
    },
    async stop() {
      await writeFile(stopFile, '');
      return running;
    },
  };
}
