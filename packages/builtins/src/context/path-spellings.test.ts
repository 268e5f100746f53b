import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { createFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';
import { ToolSessionContext } from './tool-session-context.js';
import { sessionSandboxPolicy } from './session-sandbox-policy.js';

describe('path spellings and races (peers.md "Paths")', () => {
  it('R/, R//x, R/./x and absolute spellings reach the same file; case and backslashes are kept', async () => {
    const fixture = await createFixture();
    try {
      await writeFile(join(fixture.workspace, 'x.txt'), 'x\n');
      for (const path of ['x.txt', './x.txt', './/x.txt', `${fixture.workspace}//x.txt`, `${fixture.workspace}/./x.txt`, 'sub/../x.txt']) {
        expect(await fixture.text('read', { path }), path).toBe('1\tx');
      }
      expect(await fixture.text('list', { path: `${fixture.workspace}/` })).toBe('x.txt');
      // Never lower-cased: X.TXT is another file.
      expect(ToolResult.text(await fixture.call('read', { path: 'X.TXT' }))).toBe('X.TXT does not exist. Check the path (list the parent directory to see what is there).');
      // A Windows-looking path is an ordinary relative name on POSIX, inside the workspace.
      expect(await fixture.text('write', { path: 'C:\\Users\\me\\a.txt', content: 'w' })).toBe('Created C:\\Users\\me\\a.txt (+1)');
      expect(await readFile(join(fixture.workspace, 'C:\\Users\\me\\a.txt'), 'utf8')).toBe('w');
    } finally {
      await fixture.cleanup();
    }
  });

  it('symlink chains out are followed to their end and denied; chains that stay inside work', async () => {
    const fixture = await createFixture();
    try {
      await mkdir(join(fixture.workspace, 'inner'));
      await symlink(fixture.outside, join(fixture.workspace, 'inner', 'hop2'));
      await symlink(join('inner', 'hop2'), join(fixture.workspace, 'hop1'));
      expect((await fixture.call('write', { path: 'hop1/escape.txt', content: 'x' })).status).toBe('denied');
      expect(await readdir(fixture.outside)).toEqual([]);
      await symlink('inner', join(fixture.workspace, 'in1'));
      await symlink('in1', join(fixture.workspace, 'in2'));
      expect(await fixture.text('write', { path: 'in2/ok.txt', content: 'x' })).toBe('Created inner/ok.txt (+1)');
    } finally {
      await fixture.cleanup();
    }
  });

  it('an empty list of workspace roots makes nothing writable', async () => {
    const fixture = await createFixture();
    try {
      const rootless = new ToolSessionContext({ ...fixture.session, workingDirectory: fixture.workspace, workspaceRoots: [] });
      const policy = sessionSandboxPolicy(rootless, { tempRoots: [] });
      const { finalizeBuiltinToolset } = await import('../registry/builtin-registry.js');
      const toolset = await finalizeBuiltinToolset(rootless, { escalationAvailable: true });
      const result = await fixture.call('write', { path: 'a.txt', content: 'x' }, { toolset, policy });
      expect(result.status).toBe('denied');
      expect(ToolResult.text(result)).toContain(`${join(fixture.workspace, 'a.txt')} is outside the writable roots of this session`);
    } finally {
      await fixture.cleanup();
    }
  });

  it('a file swapped for a link to a credential between the check and the read shows nothing', async () => {
    let swap: (() => Promise<void>) | undefined;
    const fixture = await createFixture({
      filesystem: interceptingFileSystem(async (operation) => {
        if (operation === 'readLines' || operation === 'readdir') await swap?.();
      }),
    });
    try {
      await mkdir(join(fixture.home, '.ssh'));
      await writeFile(join(fixture.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
      const path = join(fixture.workspace, 'notes.txt');
      await writeFile(path, 'harmless\n');
      swap = async () => {
        await rename(path, `${path}.old`);
        await symlink(join(fixture.home, '.ssh', 'id_rsa'), path);
      };
      const result = await fixture.call('read', { path: 'notes.txt' });
      expect(result.status).toBe('failed');
      expect(ToolResult.text(result)).toBe('notes.txt was replaced (by a link or another file) while read was reading it, so nothing it read is shown. Call read again.');
      expect(fixture.session.observations.size).toBe(0);
      // Asked again, the fence sees the link and denies it.
      swap = undefined;
      expect((await fixture.call('read', { path: 'notes.txt' })).status).toBe('denied');

      const directory = join(fixture.workspace, 'docs');
      await mkdir(directory);
      swap = async () => {
        await rename(directory, `${directory}.old`);
        await symlink(join(fixture.home, '.ssh'), directory);
      };
      const listed = await fixture.call('list', { path: 'docs' });
      expect(ToolResult.text(listed)).toBe('docs was replaced (by a link or another file) while list was reading it, so nothing it read is shown. Call list again.');
      expect(ToolResult.text(listed)).not.toContain('id_rsa');
    } finally {
      await fixture.cleanup();
    }
  });
});
