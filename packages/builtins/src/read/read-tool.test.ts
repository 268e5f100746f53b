import { createHash } from 'node:crypto';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
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

function numbered(from: number, to: number, line: (n: number) => string): string {
  const lines: string[] = [];
  for (let n = from; n <= to; n += 1) lines.push(`${n}\t${line(n)}`);
  return lines.join('\n');
}

describe('read (§7.1)', () => {
  it('reads_a_one_based_page_with_original_line_numbers', async () => {
    await writeFile(join(fixture.workspace, 'four.txt'), 'a\nb\nc\nd\n');
    expect(await fixture.text('read', { path: 'four.txt', offset: 2, limit: 2 })).toBe('2\tb\n3\tc\n\n[showing lines 2-3 of 4. Continue with offset=4]');
    // The last page has no footer; offset 0 counts as 1.
    expect(await fixture.text('read', { path: 'four.txt', offset: 4 })).toBe('4\td');
    expect(await fixture.text('read', { path: 'four.txt', offset: 0 })).toBe('1\ta\n2\tb\n3\tc\n4\td');
    expect(await fixture.text('read', { path: 'four.txt' })).toBe('1\ta\n2\tb\n3\tc\n4\td');
  });

  it('acc_20 default read stops at the first limit and says how to continue', async () => {
    // 5,000 short lines: the line limit comes first.
    await writeFile(join(fixture.workspace, 'short.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const short = await fixture.text('read', { path: 'short.txt' });
    expect(short).toBe(`${numbered(1, 2000, (n) => `line ${n}`)}\n\n[showing lines 1-2000 of 5000. Continue with offset=2001]`);

    // 5,000 lines of 100 characters: 32 KB comes first, and the page ends with a whole line.
    const long = (n: number) => `${String(n).padStart(5, '0')} ${'x'.repeat(94)}`;
    await writeFile(join(fixture.workspace, 'long.txt'), Array.from({ length: 5000 }, (_, i) => long(i + 1)).join('\n') + '\n');
    const text = await fixture.text('read', { path: 'long.txt' });
    const [page, footer] = text.split('\n\n');
    const lines = page!.split('\n');
    const last = lines.length;
    expect(Buffer.byteLength(page!, 'utf8')).toBeLessThanOrEqual(31_488);
    // One more line would not have fitted.
    expect(Buffer.byteLength(page!, 'utf8') + Buffer.byteLength(`\n${last + 1}\t${long(last + 1)}`)).toBeGreaterThan(31_488);
    expect(page).toBe(numbered(1, last, long));
    expect(footer).toBe(`[showing lines 1-${last} of 5000; stopped at 32 KB. Continue with offset=${last + 1}]`);
    // Continuing where the footer says gives the next line.
    const next = await fixture.text('read', { path: 'long.txt', offset: last + 1, limit: 1 });
    expect(next.split('\n')[0]).toBe(`${last + 1}\t${long(last + 1)}`);
  });

  it('acc_21 long lines are cut to 2000 chars and marked', async () => {
    const line = 'é'.repeat(10_000);
    await writeFile(join(fixture.workspace, 'wide.txt'), `${line}\nshort\n`);
    expect(await fixture.text('read', { path: 'wide.txt' })).toBe(`1\t${'é'.repeat(2000)}... (line truncated to 2000 chars)\n2\tshort`);
    // Exactly 2,000 characters is not cut; characters are code points, not UTF-16 units.
    await writeFile(join(fixture.workspace, 'exact.txt'), '😀'.repeat(2000));
    expect(await fixture.text('read', { path: 'exact.txt' })).toBe(`1\t${'😀'.repeat(2000)}`);
    await writeFile(join(fixture.workspace, 'over.txt'), '😀'.repeat(2001));
    expect(await fixture.text('read', { path: 'over.txt' })).toBe(`1\t${'😀'.repeat(2000)}... (line truncated to 2000 chars)`);
  });

  it('overlong_lines_are_cut_while_streaming', async () => {
    // A 48 MB line between two short ones: shown cut and marked, the lines after it intact, the
    // whole file counted and hashed, and the memory used does not follow the line's length.
    const path = join(fixture.workspace, 'huge-line.txt');
    const handle = await open(path, 'w');
    const hash = createHash('sha256');
    const put = async (bytes: Buffer) => {
      hash.update(bytes);
      await handle.write(bytes);
    };
    await put(Buffer.from('first\n'));
    const block = Buffer.alloc(1024 * 1024, 'ab');
    for (let i = 0; i < 48; i += 1) await put(block);
    await put(Buffer.from('\nlast\n'));
    await handle.close();

    globalThis.gc?.();
    const before = process.memoryUsage();
    let peak = before.arrayBuffers;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 1);
    let text: string;
    try {
      text = await fixture.text('read', { path: 'huge-line.txt' });
    } finally {
      clearInterval(sampler);
    }
    expect(text).toBe(`1\tfirst\n2\t${'ab'.repeat(1000)}... (line truncated to 2000 chars)\n3\tlast`);
    expect(peak - before.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
    // The read recorded the hash of the whole file (§7.4), not of what it showed.
    const checked = await fixture.session.resolvePath('huge-line.txt', 'read', 'must-exist', fixture.policy(), 'read');
    expect(checked.ok && fixture.session.observations.lookup(checked.path)).toBe(hash.digest('hex'));
  });

  it('removes the \\r of CRLF line ends and of a last line without \\n', async () => {
    await writeFile(join(fixture.workspace, 'crlf.txt'), 'one\r\ntwo\r\nthree\r');
    expect(await fixture.text('read', { path: 'crlf.txt' })).toBe('1\tone\n2\ttwo\n3\tthree');
  });

  it('reports an empty file and an offset past the end', async () => {
    await writeFile(join(fixture.workspace, 'empty.txt'), '');
    expect(await fixture.text('read', { path: 'empty.txt' })).toBe('[empty file]');
    await writeFile(join(fixture.workspace, 'three.txt'), 'a\nb\nc\n');
    const past = await fixture.call('read', { path: 'three.txt', offset: 4 });
    expect(past.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(past)).toBe('offset 4 is past the end of three.txt, which has 3 lines. Read with an offset from 1 to 3.');
  });

  it('rejects a limit outside 1–2000 and a negative offset as invalid arguments', async () => {
    await writeFile(join(fixture.workspace, 'a.txt'), 'a\n');
    for (const input of [{ limit: 0 }, { limit: 2001 }, { offset: -1 }, { limit: 1.5 }]) {
      const result = await fixture.call('read', { path: 'a.txt', ...input });
      expect(result.error?.code).toBe('invalid_arguments');
      expect(ToolResult.text(result)).toMatch(/^invalid tool input: (limit|offset): /);
    }
  });

  it('says what to do next for a NUL line and invalid UTF-8 (a directory is listed: read-media.test.ts)', async () => {
    await mkdir(join(fixture.workspace, 'src'));
    expect(await fixture.text('read', { path: 'src' })).toBe('[empty directory]');

    await writeFile(join(fixture.workspace, 'binary.dat'), Buffer.from('ok\nab\0cd\nmore\n'));
    const binary = await fixture.call('read', { path: 'binary.dat' });
    expect(binary.error?.code).toBe('execution_failed');
    expect(ToolResult.text(binary)).toBe(
      'Line 2 of binary.dat contains a NUL byte, so binary.dat looks like a binary file, which read does not show. Inspect it with bash (for example file or xxd). Line 1 can be read with offset=1 limit=1. The next lines start at offset=3.',
    );

    await writeFile(join(fixture.workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const latin1 = await fixture.call('read', { path: 'latin1.txt' });
    expect(ToolResult.text(latin1)).toBe('Line 1 of latin1.txt is not valid UTF-8; read shows UTF-8 text only. Inspect it with bash (for example iconv or xxd).');
    // Failed reads do not count as having seen the file.
    expect(fixture.session.observations.size).toBe(0);
  });

  it('a missing file says so and names the path the model gave', async () => {
    const result = await fixture.call('read', { path: 'nope/missing.txt' });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toBe('nope/missing.txt does not exist. Check the path (list the parent directory to see what is there).');
  });

  it('rejects_read_through_symlink_into_a_credential_directory', async () => {
    await mkdir(join(fixture.home, '.ssh'));
    await writeFile(join(fixture.home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    await symlink(join(fixture.home, '.ssh'), join(fixture.workspace, 'keys'));
    const result = await fixture.call('read', { path: 'keys/id_ed25519' });
    expect(result.status).toBe('denied');
    expect(result.error?.code).toBe('permission_denied');
    expect(result.sandboxDenied).toBe(true);
    const key = join(fixture.home, '.ssh', 'id_ed25519');
    expect(ToolResult.text(result)).toBe(
      `Permission denied: ${key} is a credential path (secrets are unreadable without approval). To get access, call read again with sandboxPermissions {"paths":[{"path":"${key}","access":"read","scope":"exact"}]} and a one-line justification; the user will be asked.`,
    );
    expect(ToolResult.text(result)).not.toContain('PRIVATE KEY');
    // With the grant core stamps after the user approved, the same call reads it.
    expect(await fixture.text('read', { path: 'keys/id_ed25519' }, { grants: [{ path: key, access: 'read', scope: 'exact' }] })).toBe('1\tPRIVATE KEY');
  });

  it('reads outside the workspace are not restricted', async () => {
    await writeFile(join(fixture.outside, 'notes.txt'), 'hello\n');
    expect(await fixture.text('read', { path: join(fixture.outside, 'notes.txt') })).toBe('1\thello');
    expect(await fixture.text('read', { path: '../outside/notes.txt' })).toBe('1\thello');
  });

  it('reads ~ and ~/… from the home directory', async () => {
    await writeFile(join(fixture.home, 'todo.txt'), 'milk\n');
    expect(await fixture.text('read', { path: '~/todo.txt' })).toBe('1\tmilk');
    const other = await fixture.call('read', { path: '~root/.profile' });
    expect(other.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(other)).toBe(
      "~root/.profile: ~root (another user's home directory) is not supported; only ~ and ~/… (your home directory) are expanded. Send an absolute path, or ./~root/.profile for a file whose name starts with ~.",
    );
  });
});
