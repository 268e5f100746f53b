import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('list (§7.8)', () => {
  it('lists_a_zero_based_sorted_page', async () => {
    const names = ['b.txt', 'a-b', '.hidden', 'Zed', 'é.md', '_x'];
    for (const name of names) await writeFile(join(fixture.workspace, name), '');
    await mkdir(join(fixture.workspace, 'a'));
    await mkdir(join(fixture.workspace, 'node_modules'));
    await writeFile(join(fixture.workspace, '.gitignore'), 'node_modules\nb.txt\n');
    await symlink('a', join(fixture.workspace, 'link-to-a'));
    await symlink('missing', join(fixture.workspace, 'dangling'));
    const all = ['.gitignore', '.hidden', 'Zed', '_x', 'a/', 'a-b', 'b.txt', 'dangling', 'link-to-a/', 'node_modules/', 'é.md'];
    // Sorted by name (code points), directories marked, hidden entries and ignored names included.
    expect(await fixture.text('list', {})).toBe(all.join('\n'));
    expect(await fixture.text('list', { path: '.', offset: 0, limit: 4 })).toBe(`${all.slice(0, 4).join('\n')}\n\n[showing 4 entries from offset 0; more entries available at offset 4]`);
    expect(await fixture.text('list', { offset: 4, limit: 4 })).toBe(`${all.slice(4, 8).join('\n')}\n\n[showing 4 entries from offset 4; more entries available at offset 8]`);
    expect(await fixture.text('list', { offset: 8, limit: 4 })).toBe(all.slice(8).join('\n'));
  });

  it('pages of a large directory neither overlap nor skip', async () => {
    const directory = join(fixture.workspace, 'many');
    await mkdir(directory);
    const expected: string[] = [];
    for (let i = 0; i < 450; i += 1) {
      const name = `f${String((i * 7919) % 1000).padStart(4, '0')}`;
      await writeFile(join(directory, name), '');
      expected.push(name);
    }
    expected.sort();
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const text = await fixture.text('list', { path: 'many', offset });
      const [page, footer] = text.split('\n\n');
      seen.push(...page!.split('\n'));
      if (footer === undefined) break;
      const next = /more entries available at offset (\d+)]$/.exec(footer);
      expect(footer).toBe(`[showing 200 entries from offset ${offset}; more entries available at offset ${offset + 200}]`);
      offset = Number(next![1]);
    }
    expect(seen).toEqual(expected);
  });

  it('stops a page at 32 KB of names and says where the next one starts', async () => {
    const directory = join(fixture.workspace, 'long-names');
    await mkdir(directory);
    for (let i = 0; i < 300; i += 1) await writeFile(join(directory, `${String(i).padStart(3, '0')}-${'n'.repeat(200)}`), '');
    const text = await fixture.text('list', { path: 'long-names', limit: 2000 });
    const [page, footer] = text.split('\n\n');
    const shown = page!.split('\n').length;
    expect(Buffer.byteLength(page!)).toBeLessThanOrEqual(31_488);
    expect(shown).toBe(Math.floor((31_488 + 1) / 205));
    expect(footer).toBe(`[showing ${shown} entries from offset 0; more entries available at offset ${shown}]`);
  });

  it('says what to do for a file, an offset past the end, an empty directory and a bad limit', async () => {
    await writeFile(join(fixture.workspace, 'file.txt'), 'x');
    const file = await fixture.call('list', { path: 'file.txt' });
    expect(file.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(file)).toBe('file.txt is not a directory. Use read with path "file.txt" to see a file.');
    const past = await fixture.call('list', { offset: 1 });
    expect(ToolResult.text(past)).toBe('offset 1 is past the last entry of ., which has 1 entry. List with an offset from 0 to 0.');
    await mkdir(join(fixture.workspace, 'empty'));
    expect(await fixture.text('list', { path: 'empty' })).toBe('[empty directory]');
    for (const limit of [0, 2001]) expect(ToolResult.text(await fixture.call('list', { limit }))).toMatch(/^invalid tool input: limit: /);
  });

  it('acc_10b credential directories are unreadable for list too', async () => {
    await mkdir(join(fixture.home, '.ssh'));
    await writeFile(join(fixture.home, '.ssh', 'id_rsa'), 'key');
    await symlink(join(fixture.home, '.ssh'), join(fixture.workspace, 'ssh-link'));
    for (const path of ['~/.ssh', 'ssh-link', join(fixture.home, '.ssh')]) {
      const result = await fixture.call('list', { path });
      expect(result.status, path).toBe('denied');
      expect(result.sandboxDenied).toBe(true);
      expect(ToolResult.text(result)).toContain(`Permission denied: ${join(fixture.home, '.ssh')} is a credential path`);
      expect(ToolResult.text(result)).toContain('call list again with sandboxPermissions');
    }
    // The home directory itself can be listed (names only).
    expect(await fixture.text('list', { path: '~' })).toBe('.ssh/');
  });
});
