import { createHash } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { snapshotTree, tempFilesBelow } from '@openwork/tooling/tree-snapshot';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reapplyFileChanges, undoFileChanges, type FileChangeEngineOptions, type FileChangeOutcome } from '../index.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from '../bash/test-support/bash-fixture.js';
import { startSandboxedFlipper, type SandboxedFlipper } from './test-support/sandboxed-flipper.js';

// Races (architecture §3.7 "Races", docs/decisions/0006-writes-through-held-folder-descriptors.md): a sandboxed bash (the real bubblewrap sandbox,
// started through the bash tool) swaps `sub/` for a link to the home and `tree/` (an ancestor of
// the target's folder) for a link to a copy of it in the home, as fast as it can, while write,
// edit, undo and reapply run through their public entry points. Nothing in the home may be
// created, replaced, changed or left behind; every call either completes in the real folder or
// fails with a clear error. 1,000 attempts here (a tool call costs several times a bare write);
// fs-backend's race tests make the other 9,000 of the 10,000 against NodeFileSystem directly.
const onLinux = process.platform === 'linux';
const attempts = 1000;
const lanes = 8;
const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

let fixture: BashFixture;
let flipper: SandboxedFlipper | undefined;
const held: number[] = [];

beforeAll(async () => {
  if (onLinux) await requireBubblewrap();
});
beforeEach(async () => {
  fixture = await createBashFixture();
});
afterEach(async () => {
  await flipper?.stop().catch(() => undefined);
  flipper = undefined;
  for (const fd of held.splice(0)) closeSync(fd);
  await fixture.cleanup();
});

/** The test's own view into a real folder, wherever the flipper has it: `/proc/self/fd/<fd>/<entry>`. */
function holdFolder(path: string): (entry: string) => string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  held.push(fd);
  return (entry) => `/proc/self/fd/${fd}/${entry}`;
}

/**
 * Where a completed write of `content` to `<folder>/<entry>` is: in the real folder (held), or —
 * when the write found the folder missing for an instant and made it anew, as write makes missing
 * parents — in that new folder, which the flipper moves aside to `<folder>.made-meanwhile-<n>`.
 * Each candidate is opened without following a link, so a file that went through the link into
 * the home is never taken for one in the workspace. Calls `use` with a path to the file.
 */
async function foundInWorkspace(workspace: string, inHeld: (entry: string) => string, folder: string, entry: string, content: string, use: (path: string) => Promise<void> = async () => undefined): Promise<boolean> {
  const holds = async (path: string) => (await readFile(path, 'utf8').catch(() => undefined)) === content;
  for (let round = 0; round < 20; round += 1) {
    if (await holds(inHeld(entry))) {
      await use(inHeld(entry));
      return true;
    }
    for (const name of (await readdir(workspace)).filter((candidate) => candidate === folder || candidate.startsWith(`${folder}.made-meanwhile-`))) {
      let fd: number;
      try {
        fd = openSync(join(workspace, name), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      } catch {
        continue; // a link (or gone): not a folder of the workspace
      }
      try {
        const path = `/proc/self/fd/${fd}/${entry}`;
        if (await holds(path)) {
          await use(path);
          return true;
        }
      } finally {
        closeSync(fd);
      }
    }
    // A folder the flipper was moving just then: look again.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return false;
}

/** Every attempt's outcome: completed (checked in the real folder) or refused, by code, with a sample message. */
class Tally {
  attempts = 0;
  completed = 0;
  readonly refused = new Map<string, { count: number; sample: string }>();

  readonly startedMs = Date.now();

  refuse(code: string, message: string): void {
    // A clear error: it says what went wrong, about a path of this call.
    expect(message.length, code).toBeGreaterThan(20);
    const entry = this.refused.get(code) ?? { count: 0, sample: message };
    entry.count += 1;
    this.refused.set(code, entry);
  }

  /**
   * A tool result: succeeded (then `check` proves where it went), or failed with one of the
   * expected codes. edit may also say its oldString is not in the file: it read the file by path
   * at an instant the folder was a link (reads are not what this test is about), and the write
   * that would follow is refused by the compare-before-rename anyway.
   */
  async tool(result: ToolResult, check: () => Promise<void>, alsoExpected: readonly string[] = []): Promise<boolean> {
    this.attempts += 1;
    if (result.status === 'succeeded') {
      this.completed += 1;
      await check();
      return true;
    }
    expect(['execution_failed', 'permission_denied', ...alsoExpected], ToolResult.text(result)).toContain(result.error?.code);
    this.refuse(`tool ${result.error?.code ?? '?'}`, ToolResult.text(result));
    return false;
  }

  /** An undo or reapply outcome, the same way. */
  async fileChanges(outcome: FileChangeOutcome, check: () => Promise<void>): Promise<boolean> {
    this.attempts += 1;
    if (outcome.ok) {
      this.completed += 1;
      await check();
      return true;
    }
    expect(['conflict', 'failed', 'permission_denied'], outcome.message).toContain(outcome.code);
    this.refuse(`${outcome.operation} ${outcome.code}`, outcome.message);
    return false;
  }
}

describe.skipIf(!onLinux)('write, edit, undo and reapply against a sandboxed bash that swaps folders for links into the home (§3.7 Races)', () => {
  it(`create nothing, replace nothing and leave nothing outside the workspace (${attempts} attempts)`, async () => {
    const { workspace, home } = fixture;
    await writeFile(join(home, '.bashrc'), '# stock bashrc: sources ~/.bash_aliases\n');
    await mkdir(join(workspace, 'sub'));
    for (const tree of [join(workspace, 'tree'), join(home, 'tree')]) await mkdir(join(tree, 'x'), { recursive: true });
    for (let lane = 0; lane < lanes; lane += 1) {
      // The same files in the home: a followed link would find, match and replace them.
      for (const base of [join(workspace, 'sub'), home]) await writeFile(join(base, `edit-${lane}.txt`), 'value = alpha\n');
      for (const base of [join(workspace, 'tree'), join(home, 'tree')]) await writeFile(join(base, 'x', `notes-${lane}.txt`), 'notes\n');
    }
    await fixture.call('bash', { command: 'true' }); // the sandbox's helpers are in the OpenWork home (in this home) from the first call on
    // OpenWork's own staging folder (in the OpenWork home, in this home) changes with every call.
    const userHome = async () => (await snapshotTree(home)).filter((line) => !line.startsWith('.openwork/staging '));
    const homeBefore = await userHome();
    const outsideBefore = await snapshotTree(fixture.outside);
    const sub = holdFolder(join(workspace, 'sub'));
    const tree = holdFolder(join(workspace, 'tree'));
    const engine: FileChangeEngineOptions = { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() };

    flipper = startSandboxedFlipper(
      fixture,
      [
        { folder: 'sub', linkTarget: home },
        { folder: 'tree', linkTarget: join(home, 'tree') },
      ],
      join(workspace, 'stop'),
      { from: join(home, '.bashrc'), to: join(workspace, 'hard-linked-bashrc') },
    );
    await flipper.started();

    const tally = new Tally();
    let stopped = false;
    const settled = await Promise.allSettled(
      Array.from({ length: lanes }, async (_, lane) => {
        let artifact: unknown;
        for (let step = 0; tally.attempts < attempts && !stopped; step += 1) {
          const index = step * lanes + lane;
          const kind = step % 4;
          if (kind === 0) {
            // Create: `sub/.bash_aliases` followed into the home is the file bash sources.
            const name = lane === 0 ? '.bash_aliases' : `.bash_aliases-${lane}`;
            const content = `alias ls='echo planted ${index}'\n`;
            await tally.tool(await fixture.call('write', { path: `sub/${name}`, content }), async () => {
              // Found, and removed so that the next create of this lane finds the name free.
              expect(await foundInWorkspace(workspace, sub, 'sub', name, content, (path) => unlink(path)), `${name}: ${content}`).toBe(true);
            });
          } else if (kind === 1) {
            // Replace below the swapped ancestor, after reading it as the tool requires.
            const path = `tree/x/notes-${lane}.txt`;
            await fixture.call('read', { path });
            const content = `notes ${index}\n`;
            await tally.tool(await fixture.call('write', { path, content }), async () => {
              expect(await foundInWorkspace(workspace, tree, 'tree', `x/notes-${lane}.txt`, content), path).toBe(true);
            });
          } else if (kind === 2) {
            const name = `edit-${lane}.txt`;
            await fixture.call('read', { path: `sub/${name}` });
            const [from, to] = (await readFile(sub(name), 'utf8')).includes('alpha') ? ['alpha', 'beta'] : ['beta', 'alpha'];
            const result = await fixture.call('edit', { filePath: `sub/${name}`, oldString: from, newString: to });
            await tally.tool(result, async () => {
              expect(await readFile(sub(name), 'utf8')).toBe(`value = ${to}\n`);
              artifact = JSON.parse(JSON.stringify(result.artifacts[0])) as unknown;
            }, ['invalid_arguments']);
          } else if (artifact !== undefined) {
            const name = `edit-${lane}.txt`;
            const change = (artifact as { change: { beforeHash: string; afterHash: string } }).change;
            const undo = await undoFileChanges({ artifacts: [artifact] }, engine);
            const undone = await tally.fileChanges(undo, async () => {
              expect(sha256(await readFile(sub(name)))).toBe(change.beforeHash);
            });
            if (!undone || !undo.ok) continue;
            const reapply = await reapplyFileChanges({ artifacts: JSON.parse(JSON.stringify(undo.artifacts)) as unknown[] }, engine);
            await tally.fileChanges(reapply, async () => {
              expect(sha256(await readFile(sub(name)))).toBe(change.afterHash);
            });
          }
        }
      }).map((lane) =>
        lane.catch((error: unknown) => {
          stopped = true; // the other lanes stop too, so nothing writes while the test cleans up
          throw error;
        }),
      ),
    );
    const laneFailure = settled.find((outcome) => outcome.status === 'rejected');
    if (laneFailure !== undefined) throw laneFailure.reason;

    const bash = await flipper.stop();
    flipper = undefined;
    const report = ToolResult.text(bash);
    const rounds = [...report.matchAll(/rounds (\w+) (\d+)/g)].map((match) => `${match[1]}: ${match[2]}`);
    // Reported, not asserted (timing): how the race went.
    console.info(`${Date.now() - tally.startedMs} ms, attempts ${tally.attempts}, completed ${tally.completed}, flipper rounds ${rounds.join(', ')}, ${report.split('\n')[0]}`);
    for (const [code, { count, sample }] of tally.refused) console.info(`  ${code} ×${count}: ${sample}`);

    expect(bash.status, report).toBe('succeeded');
    expect(rounds).toHaveLength(2);
    // Linux refuses a hard link across the sandbox's mounts, so no home file gets a name in the workspace.
    expect(report).toContain('hard link refused');
    expect(tally.attempts).toBeGreaterThanOrEqual(attempts);
    expect(tally.completed).toBeGreaterThan(0);
    expect(tally.completed).toBeLessThan(tally.attempts);
    expect(await userHome()).toEqual(homeBefore);
    expect(await snapshotTree(fixture.outside)).toEqual(outsideBefore);
    expect(await tempFilesBelow(workspace)).toEqual([]);
  }, 180_000);
});
