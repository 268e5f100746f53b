import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, landlockScope } from '../index.js';
import type { PathGrant, SandboxMode, SandboxPolicy } from '../index.js';
import { installStageMountHelper } from '../staging/install-stage-mount-helper.js';
import { listTree, makeTempDirectory, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

const backend = new BubblewrapBackend();
let root: string;

beforeAll(async () => {
  await requireBubblewrap();
  root = await makeTempDirectory('ow-bwrap-cleanup-');
});

afterAll(async () => {
  if (root !== undefined) await fsp.rm(root, { recursive: true, force: true });
});

describe('mount points bwrap creates on the host', () => {
  it('after 200 sandboxed commands the workspace contains no file the user did not create', async () => {
    // Every protected name is missing: no credential or start-up file in home, a repository
    // without hooks and config, an extra root without .git at all, no .envrc/.vscode/.idea.
    const home = path.join(root, 'home');
    const workspace = path.join(root, 'ws');
    const extra = path.join(root, 'extra');
    const temp = path.join(root, 'tmp');
    const outside = path.join(root, 'outside');
    for (const directory of [home, extra, temp, outside, path.join(workspace, '.git')]) await fsp.mkdir(directory, { recursive: true });
    await fsp.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
    await fsp.writeFile(path.join(workspace, 'main.ts'), 'export {};\n');
    // The Landlock and stage-mount helpers are installed once per OpenWork home (§3.7, §3.10), not left by a call: in place before the snapshot.
    landlockScope(path.join(home, '.openwork'));
    installStageMountHelper(path.join(home, '.openwork'));
    const before = await listTree(root);

    const modes: SandboxMode[] = ['workspace-write', 'full-access', 'read-only'];
    const grantSets: PathGrant[][] = [
      [],
      [{ path: path.join(outside, 'new/file.txt'), access: 'write', scope: 'exact' }],
      [{ path: path.join(home, '.ssh'), access: 'write', scope: 'subtree' }],
    ];
    const policies: SandboxPolicy[] = modes.flatMap((mode) =>
      grantSets.map((grants) =>
        createSandboxPolicy({ mode, workspaceRoots: [workspace], extraWritableRoots: [extra], homeDirectory: home, tempRoots: [temp], grants }),
      ),
    );

    const failures: string[] = [];
    // Four at a time, like parallel sessions: they share mount points through the ledger.
    for (let batch = 0; batch < 50; batch += 1) {
      await Promise.all(
        [0, 1, 2, 3].map(async (slot) => {
          const index = batch * 4 + slot;
          const policy = policies[index % policies.length] as SandboxPolicy;
          const result = await runWrapped(backend.wrap({ argv: ['true'], cwd: workspace }, policy), workspace);
          if (result.code !== 0) failures.push(`#${index}: exit ${String(result.code)} ${result.stderr}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    // Staged writes keep each call's staging folder in the OpenWork home (architecture §3.10), removed
    // at release(): only the folder that holds them may remain, in OpenWork's own place, with the
    // lock file of this living process (removed when it ends).
    const staging = path.join('home', '.openwork', 'staging');
    const ownLock = new RegExp(`^f ${staging}/${process.pid}\\.[0-9a-f]{8}\\.lock$`);
    const after = (await listTree(root)).filter((entry) => !ownLock.test(entry));
    expect(after.filter((entry) => entry !== `d ${staging}`)).toEqual(before);
    expect(after.filter((entry) => entry.slice(2).startsWith(`${staging}/`))).toEqual([]);
  });
});
