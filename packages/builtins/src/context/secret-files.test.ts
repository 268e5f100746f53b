import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from '../bash/test-support/bash-fixture.js';

/**
 * Secrets at rest (architecture §3.8): the 13 secret files an outside attack read plainly, each
 * with a unique marker, must be unreadable through read, grep, glob, list and bash — and through a
 * second mount path of the same home (a bind mount made here, as root, and removed afterwards).
 */
const secretFiles = [
  '.pgpass',
  '.cargo/credentials.toml',
  '.vault-token',
  '.config/hub',
  '.terraform.d/credentials.tfrc.json',
  '.gem/credentials',
  '.m2/settings.xml',
  '.config/rclone/rclone.conf',
  '.yarnrc.yml',
  '.bash_history',
  '.config/op/config',
  '.env',
  '.ssh2/id_rsa_2048_a',
];

const marker = (index: number): string => `SECRET-VALUE-${index}-x9`;
let fixture: BashFixture;
let alias: string | undefined;

function canBindMount(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

beforeAll(async () => {
  await requireBubblewrap();
  fixture = await createBashFixture();
  for (const [index, file] of secretFiles.entries()) {
    await mkdir(dirname(join(fixture.home, file)), { recursive: true });
    await writeFile(join(fixture.home, file), `token = ${marker(index)}\n`);
  }
  await mkdir(join(fixture.home, '.ssh'), { recursive: true });
  await writeFile(join(fixture.home, '.ssh/id_rsa'), `${marker(99)}\n`);
});

afterAll(async () => {
  if (alias !== undefined) execFileSync('umount', [alias]);
  await fixture?.cleanup();
});

describe('secret files of issue 24 (architecture §3.8)', () => {
  it('each of the 13 is unreadable through read, grep and bash', async () => {
    for (const [index, file] of secretFiles.entries()) {
      const absolute = join(fixture.home, file);
      const read = await fixture.call('read', { path: `~/${file}` });
      expect(read.status, `read ${file}`).toBe('denied');
      expect(ToolResult.text(read)).not.toContain(marker(index));
      const grep = await fixture.call('grep', { pattern: 'SECRET', path: absolute });
      expect(ToolResult.text(grep), `grep ${file}`).not.toContain(marker(index));
      const bash = await fixture.call('bash', { command: `cat ${absolute}; grep -ra SECRET ${fixture.home}` });
      expect(ToolResult.text(bash), `bash ${file}`).not.toContain(marker(index));
    }
  });

  it('glob and list name none of them and show none of their contents', async () => {
    const glob = ToolResult.text(await fixture.call('glob', { pattern: '**/*', path: '~' }));
    const grep = ToolResult.text(await fixture.call('grep', { pattern: 'SECRET', path: '~', glob: '**' }));
    for (const [index, file] of secretFiles.entries()) {
      expect(glob, `glob ${file}`).not.toContain(file);
      expect(grep, `grep ~ ${file}`).not.toContain(marker(index));
    }
    for (const folder of ['.ssh2', '.config/rclone', '.config/op']) {
      expect((await fixture.call('list', { path: `~/${folder}` })).status, `list ${folder}`).toBe('denied');
    }
  });

  it.skipIf(!canBindMount())('masks follow the file: the same home bound at a second path is masked there too, for the fence and the kernel', async () => {
    alias = join(fixture.root, 'second-home');
    await mkdir(alias);
    execFileSync('mount', ['--bind', fixture.home, alias]);
    for (const [index, file] of [...secretFiles, '.ssh/id_rsa'].entries()) {
      const through = join(alias, file);
      const expected = file === '.ssh/id_rsa' ? marker(99) : marker(index);
      const read = await fixture.call('read', { path: through });
      expect(read.status, `read ${through}`).toBe('denied');
      const bash = await fixture.call('bash', { command: `cat ${through}` });
      expect(ToolResult.text(bash), `bash ${through}`).not.toContain(expected);
    }
    const bash = await fixture.call('bash', { command: `grep -ra SECRET ${alias}` });
    expect(ToolResult.text(bash)).not.toContain('SECRET-VALUE');
  });
});
