import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree, tempFilesBelow } from '@openwork/tooling/tree-snapshot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDescriptor, descriptorPath, O_PATH, openDescriptor } from './descriptor-paths.js';
import { FileSystemError, NodeFileSystem } from './index.js';
import { startFolderFlipper, type FolderFlipper } from './test-support/folder-flipper.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

// Architecture §3.7 "Races", on the real kernel with a real racing process: a separate process
// swaps a folder on the way between the real folder and a link into "home" as fast as it can,
// while this process writes, creates folders and deletes through NodeFileSystem. Nothing in home
// may be created, replaced, changed or left behind, and every call either completes in the real
// folder or fails with a FileSystemError that says so. Attempts per test: see `attempts`; the
// builtins suite races the tools themselves through the bubblewrap sandbox for the rest of the
// 10,000 (README "Tests and benchmarks").
const onLinux = process.platform === 'linux';
const attempts = { write: 3000, ancestor: 2000, mkdirp: 2000, unlink: 2000, target: 1000 };
/** Calls in flight at once, each lane on targets of its own (a write costs an fsync: lanes keep the run to seconds). */
const lanes = 8;

/** Runs `attempt(index, lane)` for every index below `count`, `lanes` at a time, each lane in order. */
async function inLanes(count: number, attempt: (index: number, lane: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let index = lane; index < count; index += lanes) await attempt(index, lane);
    }),
  );
}
const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
const fileSystem = new NodeFileSystem();

let root: { path: string; remove(): Promise<void> };
let workspace: string;
let home: string;
let flipper: FolderFlipper | undefined;
let held: number | undefined;

beforeEach(async () => {
  root = await createTemporaryDirectory();
  workspace = join(root.path, 'workspace');
  home = join(root.path, 'home');
  await mkdir(workspace);
  await mkdir(home);
});
afterEach(async () => {
  await flipper?.stop().catch(() => undefined);
  flipper = undefined;
  if (held !== undefined) closeDescriptor(held);
  held = undefined;
  await root.remove();
});

/** Starts flipping `workspace/<name>` with a link to `linkTarget`, and holds the real folder so the test can look inside it wherever it is. */
async function flip(name: string, linkTarget: string): Promise<{ folder: string; inside(entry: string): string }> {
  const folder = join(workspace, name);
  const link = join(workspace, `${name}.link`);
  await symlink(linkTarget, link);
  held = await openDescriptor(folder, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  const fd = held;
  flipper = await startFolderFlipper({ folder, parked: join(workspace, `${name}.parked`), link, stopFile: join(root.path, 'stop') });
  return { folder, inside: (entry) => descriptorPath(fd, entry) };
}

/** What came of the attempts: completed ones, and failures by code (each a FileSystemError naming its path). */
class Tally {
  completed = 0;
  readonly failures = new Map<string, number>();
  readonly samples = new Map<string, string>();

  async run(path: string, attempt: () => Promise<unknown>, check: () => Promise<void>): Promise<void> {
    try {
      await attempt();
    } catch (error) {
      if (!FileSystemError.isInstance(error)) throw error;
      expect(error.message, 'a clear error names the path').toContain(path);
      this.failures.set(error.code, (this.failures.get(error.code) ?? 0) + 1);
      if (!this.samples.has(error.code)) this.samples.set(error.code, error.message);
      return;
    }
    this.completed += 1;
    await check();
  }

  /** The race was real: the flipper ran, some calls got through, some were refused, and only for these reasons. */
  readonly startedMs = Date.now();

  expectRaced(rounds: number, allowed: readonly string[]): void {
    // Reported, not asserted (no wall clock in tests): how the race went.
    console.info(`${Date.now() - this.startedMs} ms, rounds ${rounds}, completed ${this.completed}, failures ${JSON.stringify(Object.fromEntries(this.failures))}, e.g. ${JSON.stringify(Object.fromEntries(this.samples))}`);
    expect(rounds).toBeGreaterThan(0);
    expect(this.completed).toBeGreaterThan(0);
    expect([...this.failures.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    expect([...this.failures.keys()].filter((code) => !allowed.includes(code))).toEqual([]);
  }
}

describe.skipIf(!onLinux)('NodeFileSystem against a process that swaps a folder on the way for a link into home (§3.7 Races)', () => {
  it(`atomicWrite creates, replaces and writes without a check only in the real folder (${attempts.write} attempts)`, async () => {
    await mkdir(join(workspace, 'sub'));
    for (let lane = 0; lane < lanes; lane += 1) {
      await writeFile(join(home, `replaced-${lane}.txt`), 'home original\n');
      await writeFile(join(home, `unchecked-${lane}.txt`), 'home original\n');
      await writeFile(join(workspace, 'sub', `replaced-${lane}.txt`), 'workspace original\n');
    }
    const before = await snapshotTree(home);
    const sub = await flip('sub', home);
    const tally = new Tally();
    await inLanes(attempts.write, async (index, lane) => {
      const content = `model content ${index}\n`;
      const kind = index % 3;
      const name = kind === 0 ? `created-${lane}.txt` : kind === 1 ? `replaced-${lane}.txt` : `unchecked-${lane}.txt`;
      const path = join(workspace, 'sub', name);
      const expectedHash = kind === 0 ? null : kind === 1 ? sha256(await readFile(sub.inside(name))) : undefined;
      await tally.run(
        path,
        () => fileSystem.atomicWrite(path, content, expectedHash === undefined ? {} : { expectedHash }),
        async () => {
          expect(await readFile(sub.inside(name), 'utf8')).toBe(content);
          // The next create of this lane needs the name free again (and the folder stays small).
          if (kind === 0) await unlink(sub.inside(name));
        },
      );
    });
    tally.expectRaced(await flipper!.stop(), ['invalid_path', 'not_found']);
    flipper = undefined;
    expect(await snapshotTree(home)).toEqual(before);
    expect(await tempFilesBelow(workspace)).toEqual([]);
  });

  it(`atomicWrite below a swapped ancestor writes only in the real tree (${attempts.ancestor} attempts)`, async () => {
    // Home has the same folders, so a followed link would land a file there.
    for (const tree of [join(workspace, 'a'), join(home, 'a')]) {
      await mkdir(join(tree, 'b', 'c'), { recursive: true });
      for (let lane = 0; lane < lanes; lane += 1) await writeFile(join(tree, 'b', 'c', `file-${lane}.txt`), 'original\n');
    }
    const before = await snapshotTree(home);
    const a = await flip('a', join(home, 'a'));
    const tally = new Tally();
    await inLanes(attempts.ancestor, async (index, lane) => {
      const name = index % 2 === 0 ? `file-${lane}.txt` : `new-${index}.txt`;
      const path = join(workspace, 'a', 'b', 'c', name);
      const content = `content ${index}\n`;
      await tally.run(
        path,
        () => fileSystem.atomicWrite(path, content),
        async () => expect(await readFile(a.inside(join('b', 'c', name)), 'utf8')).toBe(content),
      );
    });
    tally.expectRaced(await flipper!.stop(), ['invalid_path', 'not_found']);
    flipper = undefined;
    expect(await snapshotTree(home)).toEqual(before);
    expect(await tempFilesBelow(workspace)).toEqual([]);
  });

  it(`mkdirp makes folders only in the real folder (${attempts.mkdirp} attempts)`, async () => {
    await mkdir(join(workspace, 'sub'));
    const before = await snapshotTree(home);
    await flip('sub', home);
    const tally = new Tally();
    const made: string[] = [];
    await inLanes(attempts.mkdirp, async (index) => {
      const path = join(workspace, 'sub', `made-${index}`, 'deeper');
      await tally.run(
        path,
        () => fileSystem.mkdirp(path),
        async () => {
          made.push(`made-${index}/deeper`);
        },
      );
    });
    tally.expectRaced(await flipper!.stop(), ['invalid_path', 'not_found']);
    flipper = undefined;
    expect(await snapshotTree(home)).toEqual(before);
    // Each one made is a real folder in the workspace: in the real `sub`, or in a `sub` a mkdirp
    // made while the real one was parked for an instant (the flipper then moved it aside).
    const workspaceFolders = (await snapshotTree(workspace)).filter((line) => line.endsWith(' folder')).map((line) => line.split(' ')[0] as string);
    for (const folder of made) expect(workspaceFolders.some((relative) => relative.endsWith(`/${folder}`)), folder).toBe(true);
  });

  it(`unlink removes only the entry of the real folder (${attempts.unlink} attempts)`, async () => {
    for (let lane = 0; lane < lanes; lane += 1) await writeFile(join(home, `victim-${lane}.txt`), 'home file\n');
    await mkdir(join(workspace, 'sub'));
    const before = await snapshotTree(home);
    const sub = await flip('sub', home);
    const tally = new Tally();
    await inLanes(attempts.unlink, async (_, lane) => {
      const name = `victim-${lane}.txt`;
      const victim = await open(sub.inside(name), 'w');
      await victim.close();
      const path = join(workspace, 'sub', name);
      await tally.run(
        path,
        () => fileSystem.unlink(path),
        async () => expect(await readdir(sub.inside('.'))).not.toContain(name),
      );
    });
    tally.expectRaced(await flipper!.stop(), ['invalid_path', 'not_found']);
    flipper = undefined;
    expect(await snapshotTree(home)).toEqual(before);
  });

  it(`atomicWrite over a target swapped for a link to a home file replaces the link, never the home file (${attempts.target} attempts)`, async () => {
    await mkdir(join(workspace, 'sub'));
    await writeFile(join(home, '.bashrc'), '# home bashrc\n');
    await writeFile(join(workspace, 'sub', 'target.txt'), 'workspace\n');
    const before = await snapshotTree(home);
    // The flipper swaps the file itself: a regular file and a link to the home's .bashrc take turns at its name.
    const link = join(workspace, 'sub', 'target.txt.link');
    await symlink(join(home, '.bashrc'), link);
    flipper = await startFolderFlipper({ folder: join(workspace, 'sub', 'target.txt'), parked: join(workspace, 'sub', 'target.txt.parked'), link, stopFile: join(root.path, 'stop') });
    const tally = new Tally();
    const path = join(workspace, 'sub', 'target.txt');
    await inLanes(attempts.target, async (index) => {
      await tally.run(
        path,
        () => fileSystem.atomicWrite(path, `content ${index}\n`),
        async () => undefined,
      );
    });
    const rounds = await flipper.stop();
    flipper = undefined;
    // Every write renames over whatever is at the name, so none is refused; the home file never changes.
    console.info(`${Date.now() - tally.startedMs} ms, rounds ${rounds}, completed ${tally.completed}, failures ${JSON.stringify(Object.fromEntries(tally.failures))}`);
    expect(rounds).toBeGreaterThan(0);
    expect(tally.completed).toBe(attempts.target);
    expect(await snapshotTree(home)).toEqual(before);
    expect(await tempFilesBelow(workspace)).toEqual([]);
  });
});
