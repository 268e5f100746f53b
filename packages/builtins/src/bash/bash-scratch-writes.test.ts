import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';

// Writes below a temp root are not file changes of a bash call, but are still judged by the
// sandbox (docs/decisions/0103): a tool's compile cache in $TMPDIR never reaches the model or undo.

const fixtures: BashFixture[] = [];
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

describe('bash: writes below a temp root', () => {
  it('reach the host but are no file_change; the workspace write is; a refused write there is still refused', async () => {
    const fixture = await createBashFixture();
    fixtures.push(fixture);
    const tmp = join(fixture.root, 'tmp');
    await mkdir(tmp);
    const policy = fixture.policy({ tempRoots: [tmp] });
    const command = [
      `mkdir -p ${tmp}/node-compile-cache/v24 && head -c 200 /dev/urandom > ${tmp}/node-compile-cache/v24/a.bin`,
      'echo kept > out.txt',
      `git init -q ${tmp}/repo && echo 'echo hooked' > ${tmp}/repo/.git/hooks/post-checkout`,
    ].join(' && ');
    const result = await fixture.call('bash', { command }, { policy });
    expect(await readFile(join(fixture.workspace, 'out.txt'), 'utf8')).toBe('kept\n');
    expect((await readFile(join(tmp, 'node-compile-cache', 'v24', 'a.bin'))).length).toBe(200);
    const changes = result.artifacts.filter((artifact) => artifact.kind === 'file_change').map((artifact) => (artifact['change'] as { path: string }).path);
    expect(changes).toEqual(['out.txt']);
    expect(result.artifacts.find((artifact) => artifact.kind === 'file_change_summary')?.['summary']).toMatchObject({ counts: { created: 1, modified: 0, deleted: 0 }, recorded: 1 });
    // Judged all the same: the hook was not applied, and the model is told.
    expect(result.sandboxDenied).toBe(true);
    await expect(readFile(join(tmp, 'repo', '.git', 'hooks', 'post-checkout'))).rejects.toThrow();
  });
});
