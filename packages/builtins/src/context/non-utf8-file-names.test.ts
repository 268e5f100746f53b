import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PathGrant } from '@openwork/sandbox';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useCompiledSearchWorkers } from '../search/test-support/compiled-search-workers.js';
import { createBashFixture, requireBubblewrap } from '../bash/test-support/bash-fixture.js';
import { reapplyFileChanges, undoFileChanges } from '../file-change/index.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

// Exact file names (docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md), grep's semantic gap "a file whose name is not valid UTF-8 is skipped by grep and listed
// by glob with U+FFFD": real files made with Buffer names in the test's workspace (ext4 and tmpfs
// take any bytes but "/" and NUL), every tool that shows or takes paths, through the toolset.

const run = promisify(execFile);
let fixture: BuiltinsFixture;
let stopWorkers: () => Promise<void>;
beforeAll(async () => {
  stopWorkers = await useCompiledSearchWorkers();
});
afterAll(async () => {
  await stopWorkers();
});
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** `<folder>/<bytes>` as a Buffer path: what the kernel gets. */
function hostPath(folder: string, ...parts: (string | number)[]): Buffer {
  return Buffer.concat([Buffer.from(`${folder}/`), ...parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.of(part)))]);
}
/** The model-visible text of a call, which must never carry a lone surrogate (our internal form). */
async function text(tool: string, input: object): Promise<string> {
  const shown = await fixture.text(tool, input);
  expect(/\p{Cs}/u.test(shown), shown).toBe(false);
  return shown;
}
async function errorOf(tool: string, input: object): Promise<{ code: string | undefined; text: string }> {
  const result = await fixture.call(tool, input);
  const shown = ToolResult.text(result);
  expect(/\p{Cs}/u.test(shown), shown).toBe(false);
  return { code: result.error?.code, text: shown };
}

describe('issue 25: a file name that is not valid UTF-8', () => {
  beforeEach(() => {
    mkdirSync(join(fixture.workspace, 'dir'));
    writeFileSync(hostPath(fixture.workspace, 'dir/caf', 0xe9, '.txt'), 'needle one\nplain\nneedle two\n');
    mkdirSync(hostPath(fixture.workspace, 'sub', 0xff));
    writeFileSync(hostPath(fixture.workspace, 'sub', 0xff, '/inner.txt'), 'needle inner\n');
    writeFileSync(join(fixture.workspace, 'dir', 'plain.txt'), 'needle plain\n');
  });

  it('glob lists it as dir/caf\\xE9.txt, a spelling read takes back', async () => {
    const listed = (await text('glob', { pattern: '**/*.txt' })).split('\n').sort();
    expect(listed).toEqual(['dir/caf\\xE9.txt', 'dir/plain.txt', 'sub\\xFF/inner.txt']);
    expect(await text('read', { path: 'dir/caf\\xE9.txt' })).toBe('1\tneedle one\n2\tplain\n3\tneedle two');
    expect(await text('read', { path: 'sub\\xFF/inner.txt' })).toBe('1\tneedle inner');
    expect(await text('read', { path: join(fixture.workspace, 'dir/caf\\xE9.txt') })).toBe('1\tneedle one\n2\tplain\n3\tneedle two');
  });

  it('grep searches it and shows the same spelling in files_with_matches, content and count', async () => {
    expect(await text('grep', { pattern: 'needle', outputMode: 'files_with_matches' })).toBe('dir/caf\\xE9.txt\ndir/plain.txt\nsub\\xFF/inner.txt');
    expect(await text('grep', { pattern: 'needle', outputMode: 'count' })).toBe('dir/caf\\xE9.txt:2\ndir/plain.txt:1\nsub\\xFF/inner.txt:1');
    expect(await text('grep', { pattern: 'needle t' })).toBe('dir/caf\\xE9.txt\n3:needle two');
    // A path given to grep in that spelling: the file, and a folder with such a name.
    expect(await text('grep', { pattern: 'needle', path: 'dir/caf\\xE9.txt', outputMode: 'count' })).toBe('dir/caf\\xE9.txt:2');
    expect(await text('grep', { pattern: 'needle', path: 'sub\\xFF' })).toBe('sub\\xFF/inner.txt\n1:needle inner');
    expect(await text('glob', { pattern: '*', path: 'sub\\xFF' })).toBe('sub\\xFF/inner.txt');
  });

  it('list and read of a folder show it; list takes a folder by that spelling', async () => {
    expect(await text('list', { path: 'dir' })).toBe('caf\\xE9.txt\nplain.txt');
    expect(await text('list', {})).toBe('dir/\nsub\\xFF/');
    expect(await text('list', { path: 'sub\\xFF' })).toBe('inner.txt');
    expect(await text('read', { path: 'dir' })).toContain('caf\\xE9.txt');
  });

  it('edit and write change the file by that spelling, and write creates a file in such a folder', async () => {
    await text('read', { path: 'dir/caf\\xE9.txt' });
    const edited = await fixture.call('edit', { filePath: 'dir/caf\\xE9.txt', oldString: 'plain', newString: 'edited' });
    expect(edited.error, ToolResult.text(edited)).toBeNull();
    expect(ToolResult.text(edited)).toContain('dir/caf\\xE9.txt');
    expect(readFileSync(hostPath(fixture.workspace, 'dir/caf', 0xe9, '.txt'), 'utf8')).toBe('needle one\nedited\nneedle two\n');
    const written = await fixture.call('write', { path: 'dir/caf\\xE9.txt', content: 'rewritten\n' });
    expect(written.error, ToolResult.text(written)).toBeNull();
    expect(readFileSync(hostPath(fixture.workspace, 'dir/caf', 0xe9, '.txt'), 'utf8')).toBe('rewritten\n');
    const created = await fixture.call('write', { path: 'sub\\xFF/new/made.txt', content: 'new\n' });
    expect(created.error, ToolResult.text(created)).toBeNull();
    expect(readFileSync(hostPath(fixture.workspace, 'sub', 0xff, '/new/made.txt'), 'utf8')).toBe('new\n');
    // Nothing was made under a literal "\xE9" or "\xFF" name, and no temp file is left.
    expect(readdirSync(join(fixture.workspace, 'dir'), { encoding: 'buffer' }).map((name) => name.toString('latin1')).sort()).toEqual(['caf\u00e9.txt', 'plain.txt']);
    expect(readdirSync(fixture.workspace).sort()).toEqual(['dir', 'sub\uFFFD']);
  });

  it('undo and reapply of an edit to such a file reach it by its exact path, after a JSON round trip of the artifacts', async () => {
    await text('read', { path: 'dir/caf\\xE9.txt' });
    const edited = await fixture.call('edit', { filePath: 'dir/caf\\xE9.txt', oldString: 'plain', newString: 'edited' });
    expect(edited.status, ToolResult.text(edited)).toBe('succeeded');
    const artifacts = JSON.parse(JSON.stringify(edited.artifacts)) as unknown[];
    const engine = { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() };
    const undo = await undoFileChanges({ artifacts }, engine);
    expect(undo.ok, undo.ok ? '' : undo.message).toBe(true);
    expect(readFileSync(hostPath(fixture.workspace, 'dir/caf', 0xe9, '.txt'), 'utf8')).toBe('needle one\nplain\nneedle two\n');
    const reapply = await reapplyFileChanges({ artifacts: JSON.parse(JSON.stringify(undo.ok ? undo.artifacts : [])) as unknown[] }, engine);
    expect(reapply.ok, reapply.ok ? '' : reapply.message).toBe(true);
    expect(readFileSync(hostPath(fixture.workspace, 'dir/caf', 0xe9, '.txt'), 'utf8')).toBe('needle one\nedited\nneedle two\n');
  });

  it('a file literally named a\\xE9.txt (a backslash) is used first; the one with byte E9 next to it is reached when there is none', async () => {
    writeFileSync(hostPath(fixture.workspace, 'a', 0xe9, '.txt'), 'bytes\n');
    expect(await text('read', { path: 'a\\xE9.txt' })).toBe('1\tbytes');
    writeFileSync(join(fixture.workspace, 'a\\xE9.txt'), 'literal\n');
    expect(await text('read', { path: 'a\\xE9.txt' })).toBe('1\tliteral');
    // A backslash in a name that is shown escaped is doubled, so that name round-trips too.
    writeFileSync(hostPath(fixture.workspace, 'b\\x41', 0xe9), 'backslash and byte\n');
    const shown = (await text('glob', { pattern: 'b*' })).split('\n');
    expect(shown).toEqual(['b\\\\x41\\xE9']);
    expect(await text('read', { path: shown[0]! })).toBe('1\tbackslash and byte');
  });

  it('an escape that decodes to ASCII, "/", NUL or valid UTF-8 is taken literally, so it never leaves the workspace or names another file', async () => {
    await writeFile(join(fixture.outside, 'secret.txt'), 'outside\n');
    await writeFile(join(fixture.workspace, 'café.txt'), 'valid utf-8\n');
    for (const path of ['\\x2E\\x2E/outside/secret.txt', '..\\x2Foutside\\x2Fsecret.txt', 'caf\\xC3\\xA9.txt', 'caf\\xe9\\x00.txt']) {
      const failed = await errorOf('read', { path });
      expect(failed.code, `${path}: ${failed.text}`).toBe('execution_failed');
      expect(failed.text, path).toContain('does not exist');
    }
    const written = await fixture.call('write', { path: '\\x2E\\x2E\\x2Foutside\\x2Fx.txt', content: 'x' });
    expect(written.error).toBeNull();
    expect(readdirSync(fixture.outside)).toEqual(['secret.txt']);
    expect(readdirSync(fixture.workspace)).toContain('\\x2E\\x2E\\x2Foutside\\x2Fx.txt');
    // A lone surrogate (our internal form of a byte) is not a spelling the model may use.
    const lone = await errorOf('read', { path: 'dir/caf\uDCE9.txt' });
    expect(lone.code).toBe('invalid_arguments');
    expect(lone.text).toContain('lone UTF-16 surrogate');
  });

  it('the fence holds for such names: outside the workspace, a hard-protected folder, a credential folder, a link out', async () => {
    writeFileSync(hostPath(fixture.outside, 'o', 0xe9), 'outside\n');
    const outsideWrite = await errorOf('write', { path: join(fixture.outside, 'o\\xE9'), content: 'x' });
    expect(outsideWrite.code).toBe('permission_denied');
    expect(outsideWrite.text).toContain('o\\xE9');
    expect(readFileSync(hostPath(fixture.outside, 'o', 0xe9), 'utf8')).toBe('outside\n');
    mkdirSync(join(fixture.workspace, '.openwork'));
    expect((await errorOf('write', { path: '.openwork/p\\xE9', content: 'x' })).code).toBe('permission_denied');
    await mkdir(join(fixture.home, '.ssh'));
    writeFileSync(hostPath(fixture.home, '.ssh/id', 0xe9), 'key\n');
    expect((await errorOf('read', { path: '~/.ssh/id\\xE9' })).code).toBe('permission_denied');
    // A link whose name is not UTF-8 leads outside: writing through it is denied, glob does not list it.
    symlinkSync(join(fixture.outside), hostPath(fixture.workspace, 'link', 0xe9));
    expect((await errorOf('write', { path: 'link\\xE9/o\\xE9', content: 'x' })).code).toBe('permission_denied');
    expect(readFileSync(hostPath(fixture.outside, 'o', 0xe9), 'utf8')).toBe('outside\n');
    expect(await text('glob', { pattern: '**/o*' })).toMatch(/^No files/);
    // A link with such a name into the OpenWork home: prepare already reports the hard-protected target.
    await mkdir(fixture.openworkHome, { recursive: true });
    symlinkSync(fixture.openworkHome, hostPath(fixture.workspace, 'home', 0xe9));
    const prepared = fixture.toolset.prepare('write', { path: 'home\\xE9/x.txt', content: 'x' });
    const protectedText = prepared.ok ? prepared.call.inspection.protectedTarget : undefined;
    expect(protectedText).toMatch(/^Permission denied: .* is protected and cannot be changed by tools\.$/);
    expect(/\p{Cs}/u.test(protectedText ?? '')).toBe(false);
    expect((await errorOf('write', { path: 'home\\xE9/x.txt', content: 'x' })).code).toBe('permission_denied');
  });

  it('a grant for such a path, spelled \\xNN, names the bytes, and the approved write changes that file', async () => {
    writeFileSync(hostPath(fixture.outside, 'o', 0xe9), 'outside\n');
    const input = {
      path: join(fixture.outside, 'o\\xE9'),
      content: 'granted\n',
      sandboxPermissions: { paths: [{ path: join(fixture.outside, 'o\\xE9'), access: 'write', scope: 'exact' }] },
      justification: 'The user asked for this file',
    };
    const prepared = fixture.toolset.prepare('write', input);
    const escalation = ((prepared.ok ? prepared.call.inspection : undefined) as { escalation?: { paths: PathGrant[] } } | undefined)?.escalation;
    expect(escalation?.paths).toEqual([{ path: `${fixture.outside}/o\uDCE9`, access: 'write', scope: 'exact' }]);
    await text('read', { path: join(fixture.outside, 'o\\xE9') });
    const written = await fixture.call('write', input, { grants: escalation?.paths ?? [] });
    expect(written.status, ToolResult.text(written)).toBe('succeeded');
    expect(readFileSync(hostPath(fixture.outside, 'o', 0xe9), 'utf8')).toBe('granted\n');
  });

  it('bash refuses a workdir with such a name, saying why, instead of starting elsewhere; cd in the command works', async () => {
    await requireBubblewrap();
    const bash = await createBashFixture();
    try {
      mkdirSync(hostPath(bash.workspace, 'sub', 0xff));
      writeFileSync(hostPath(bash.workspace, 'sub', 0xff, '/inner.txt'), 'inside\n');
      const refused = await bash.call('bash', { command: 'pwd', workdir: 'sub\\xFF' });
      expect(refused.error?.code).toBe('invalid_arguments');
      expect(ToolResult.text(refused)).toContain('sub\\xFF has a name that is not valid UTF-8');
      expect(bash.processes.spawns.length).toBe(0);
      const moved = await bash.call('bash', { command: "cd $'sub\\xff' && cat inner.txt" });
      expect(ToolResult.text(moved)).toContain('inside');
    } finally {
      await bash.cleanup();
    }
  });

  it('ripgrep agrees on the counts (its spelling is lossy, so counts are compared, not names)', async () => {
    for (let index = 0; index < 12; index += 1) {
      const folder = index % 3 === 0 ? hostPath(fixture.workspace, `t${index}`, 0x80 + index) : Buffer.from(join(fixture.workspace, `t${index}`));
      mkdirSync(folder, { recursive: true });
      writeFileSync(Buffer.concat([folder, Buffer.from('/'), Buffer.from(`f${index}`), Buffer.of(0xc0 + index), Buffer.from('.md')]), index % 2 === 0 ? 'needle\n' : 'hay\n');
      writeFileSync(Buffer.concat([folder, Buffer.from(`/g${index}.md`)]), 'needle\nneedle\n');
    }
    const rg = async (args: string[]) => (await run('rg', args, { cwd: fixture.workspace, encoding: 'buffer' })).stdout.toString('latin1').split('\n').filter((line) => line !== '');
    const files = await rg(['--files', '.']);
    const globbed = (await text('glob', { pattern: '**/*' })).split('\n');
    expect(globbed.length).toBe(files.length);
    expect(new Set(globbed).size).toBe(globbed.length);
    const matching = await rg(['-l', 'needle', '.']);
    const grepped = (await text('grep', { pattern: 'needle', outputMode: 'files_with_matches' })).split('\n');
    expect(grepped.length).toBe(matching.length);
    const counted = await rg(['-c', 'needle', '.']);
    const ours = (await text('grep', { pattern: 'needle', outputMode: 'count' })).split('\n');
    const total = (lines: string[]) => lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
    expect(ours.length).toBe(counted.length);
    expect(total(ours)).toBe(total(counted));
    // Every spelling glob showed reads back.
    for (const path of globbed.filter((shown) => shown.includes('\\x'))) {
      expect((await fixture.call('read', { path })).error, path).toBeNull();
    }
  });
});
