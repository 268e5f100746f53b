import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileObservations } from '../observations/file-observations.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function seed(name: string, content: string): Promise<string> {
  const path = join(fixture.workspace, name);
  await writeFile(path, content);
  await fixture.call('read', { path: name });
  return path;
}

const tenLines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('edit (§7.3)', () => {
  it('acc_28 edits report one line with the new line range', async () => {
    const path = await seed('lib.rs', tenLines);
    // One line replaced by three: the range is where the new text sits.
    expect(await fixture.text('edit', { filePath: 'lib.rs', oldString: 'line 5\n', newString: 'five\nfive b\nfive c\n' })).toBe('Edited lib.rs:5-7 (+3 -1)');
    expect(await fixture.text('edit', { filePath: 'lib.rs', oldString: 'line 2', newString: 'two' })).toBe('Edited lib.rs:2 (+1 -1)');
    // A deletion reports the line where the text was.
    expect(await fixture.text('edit', { filePath: 'lib.rs', oldString: 'line 9\n', newString: '' })).toBe('Edited lib.rs:11 (+0 -1)');
    expect(await readFile(path, 'utf8')).toBe('line 1\ntwo\nline 3\nline 4\nfive\nfive b\nfive c\nline 6\nline 7\nline 8\nline 10\n');
  });

  it('replace_all_reports_the_number_of_occurrences', async () => {
    const path = await seed('lib.rs', 'let a = 1;\nlet b = a;\nlet c = a + a;\nlet d = 2;\n');
    const result = await fixture.call('edit', { filePath: 'lib.rs', oldString: 'a', newString: 'alpha', replaceAll: true });
    expect(ToolResult.text(result)).toBe('Replaced 4 occurrences in lib.rs (+3 -3)');
    expect(await readFile(path, 'utf8')).toBe('let alpha = 1;\nlet b = alpha;\nlet c = alpha + alpha;\nlet d = 2;\n');
    const change = (result.artifacts[0] as unknown as { change: { additions: number; deletions: number } }).change;
    expect([change.additions, change.deletions]).toEqual([3, 3]);
    // replaceAll with a single occurrence reports like a single edit.
    expect(await fixture.text('edit', { filePath: 'lib.rs', oldString: 'd = 2', newString: 'd = 3', replaceAll: true })).toBe('Edited lib.rs:4 (+1 -1)');
  });

  it('rejects_ambiguous_or_noop_edits (and an absent oldString)', async () => {
    const path = await seed('dup.txt', 'x = 1\nx = 1\ny = 2\n');
    const ambiguous = await fixture.call('edit', { filePath: 'dup.txt', oldString: 'x = 1', newString: 'x = 9' });
    expect(ambiguous.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(ambiguous)).toBe(
      'oldString occurs 2 times in dup.txt. Include more of the surrounding lines so that it occurs once, or set replaceAll to true to replace every occurrence.',
    );
    const noop = await fixture.call('edit', { filePath: 'dup.txt', oldString: 'y = 2', newString: 'y = 2' });
    expect(noop.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(noop)).toBe('oldString and newString are identical, so the edit would change nothing. Send the text to put in its place as newString.');
    const absent = await fixture.call('edit', { filePath: 'dup.txt', oldString: 'z = 3', newString: 'z = 4' });
    expect(absent.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(absent)).toBe(
      'oldString was not found in dup.txt. It must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows. Read the file again and copy the text to replace.',
    );
    // Exact means exact: different indentation is not a match.
    expect((await fixture.call('edit', { filePath: 'dup.txt', oldString: '  y = 2', newString: 'y = 3' })).error?.code).toBe('invalid_arguments');
    expect(await readFile(path, 'utf8')).toBe('x = 1\nx = 1\ny = 2\n');
    for (const result of [ambiguous, noop, absent]) expect(result.artifacts).toEqual([]);
  });

  it('an empty oldString creates a new file and refuses an existing one', async () => {
    const created = await fixture.call('edit', { filePath: 'src/new.rs', oldString: '', newString: 'fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n' });
    expect(ToolResult.text(created)).toBe('Created src/new.rs (+4)');
    expect((created.artifacts[0] as unknown as { change: { kind: string } }).change.kind).toBe('created');
    const again = await fixture.call('edit', { filePath: 'src/new.rs', oldString: '', newString: 'other' });
    expect(again.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(again)).toBe(
      'src/new.rs already exists; an empty oldString only creates new files. To change it, read it and send the text to replace as oldString, or replace the whole file with write.',
    );
    expect(await readFile(join(fixture.workspace, 'src/new.rs'), 'utf8')).toBe('fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n');
  });

  it('acc_33 consecutive edits do not need a new read', async () => {
    const path = await seed('a.txt', 'one\ntwo\n');
    expect(await fixture.text('edit', { filePath: 'a.txt', oldString: 'one', newString: '1' })).toBe('Edited a.txt:1 (+1 -1)');
    expect(await fixture.text('edit', { filePath: 'a.txt', oldString: 'two', newString: '2' })).toBe('Edited a.txt:2 (+1 -1)');
    expect(await fixture.text('write', { path: 'a.txt', content: 'done\n' })).toBe('Overwrote a.txt (+1 -2)');
    expect(await readFile(path, 'utf8')).toBe('done\n');
  });

  it('observations_carry_across_toolsets_that_share_a_table', async () => {
    const observations = new FileObservations();
    const first = await createFixture({ observations });
    try {
      await writeFile(join(first.workspace, 'shared.txt'), 'v1\n');
      await first.call('read', { path: 'shared.txt' });
      // Core rebuilds the toolset (new turn, new role) with the session's table.
      const { ToolSessionContext } = await import('../context/tool-session-context.js');
      const { finalizeBuiltinToolset } = await import('../registry/builtin-registry.js');
      const rebuilt = new ToolSessionContext({ ...first.session, workingDirectory: first.workspace, observations });
      const toolset = await finalizeBuiltinToolset(rebuilt, { escalationAvailable: true });
      expect(await first.text('edit', { filePath: 'shared.txt', oldString: 'v1', newString: 'v2' }, { toolset })).toBe('Edited shared.txt:1 (+1 -1)');
      // A session with its own table has seen nothing.
      const stranger = new ToolSessionContext({ ...first.session, workingDirectory: first.workspace, observations: new FileObservations() });
      const strangerToolset = await finalizeBuiltinToolset(stranger, { escalationAvailable: true });
      expect(await first.text('edit', { filePath: 'shared.txt', oldString: 'v2', newString: 'v3' }, { toolset: strangerToolset })).toBe('Read shared.txt before editing it.');
    } finally {
      await first.cleanup();
    }
  });

  it('keeps CRLF line endings of a CRLF file', async () => {
    const path = await seed('win.txt', 'alpha\r\nbeta\r\ngamma\r\n');
    // read shows no \r, so the model sends \n; the file keeps \r\n, new lines included.
    expect(await fixture.text('read', { path: 'win.txt' })).toBe('1\talpha\n2\tbeta\n3\tgamma');
    expect(await fixture.text('edit', { filePath: 'win.txt', oldString: 'alpha\nbeta\n', newString: 'one\ntwo\nthree\n' })).toBe("Edited win.txt:1-3 (+3 -2); oldString matched with its \\n read as the file's CRLF line endings (newString was written with CRLF too)");
    expect(await readFile(path, 'utf8')).toBe('one\r\ntwo\r\nthree\r\ngamma\r\n');
    // A single-line oldString with a multi-line newString gets CRLF too.
    expect(await fixture.text('edit', { filePath: 'win.txt', oldString: 'gamma', newString: 'gamma\ndelta' })).toBe('Edited win.txt:4-5 (+1 -0)');
    expect(await readFile(path, 'utf8')).toBe('one\r\ntwo\r\nthree\r\ngamma\r\ndelta\r\n');
  });

  it('leaves LF lines of a mixed file alone and still finds CRLF text', async () => {
    const path = await seed('mixed.txt', 'a\nb\r\nc\r\nd\n');
    expect(await fixture.text('edit', { filePath: 'mixed.txt', oldString: 'a\nb', newString: 'A\nB' })).toBe('Edited mixed.txt:1-2 (+2 -2)');
    expect(await fixture.text('edit', { filePath: 'mixed.txt', oldString: 'B\nc\n', newString: 'B\nC\n' })).toBe("Edited mixed.txt:2-3 (+1 -1); oldString matched with its \\n read as the file's CRLF line endings (newString was written with CRLF too)");
    expect(await readFile(path, 'utf8')).toBe('A\nB\r\nC\r\nd\n');
  });

  it('keeps a UTF-8 byte order mark', async () => {
    const path = await seed('bom.txt', '\uFEFFhello\n');
    expect(await fixture.text('edit', { filePath: 'bom.txt', oldString: 'hello', newString: 'world' })).toBe('Edited bom.txt:1 (+1 -1)');
    expect(await readFile(path)).toEqual(Buffer.from('\uFEFFworld\n', 'utf8'));
  });

  it('refuses newString over 1 MiB, large or non-UTF-8 files and a missing file', async () => {
    await seed('a.txt', 'a\n');
    const big = await fixture.call('edit', { filePath: 'a.txt', oldString: 'a', newString: 'b'.repeat(1024 * 1024 + 1) });
    expect(big.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(big)).toBe('newString is 1,048,577 bytes; edit takes at most 1,048,576 bytes (1 MiB). Make smaller edits.');
    const grow = await fixture.call('edit', { filePath: 'a.txt', oldString: 'a', newString: 'b'.repeat(1024 * 1024) });
    expect(ToolResult.text(grow)).toBe('The edited a.txt would be 1,048,577 bytes; edit keeps files at most 1,048,576 bytes (1 MiB). Make the file smaller, or split it.');
    await writeFile(join(fixture.workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await fixture.text('edit', { filePath: 'latin1.txt', oldString: 'caf', newString: 'CAF' })).toBe(
      'latin1.txt is not valid UTF-8 text; edit changes only UTF-8 text files. Change it with bash instead (for example iconv or sed).',
    );
    const missing = await fixture.call('edit', { filePath: 'gone.txt', oldString: 'x', newString: 'y' });
    expect(missing.status).toBe('failed');
    expect(ToolResult.text(missing)).toBe('gone.txt does not exist. Check the path (list the parent directory to see what is there).');
  });

  it('concurrent edits through the tool are serialised by the write lock: none is lost', async () => {
    const path = await seed('counter.txt', Array.from({ length: 20 }, (_, i) => `slot ${i}: empty`).join('\n') + '\n');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fixture.call('edit', { filePath: 'counter.txt', oldString: `slot ${i}: empty`, newString: `slot ${i}: filled` })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(20).fill('succeeded'));
    expect(await readFile(path, 'utf8')).toBe(Array.from({ length: 20 }, (_, i) => `slot ${i}: filled`).join('\n') + '\n');
  });

  it('a concurrent change while the edit is being prepared is not overwritten', async () => {
    let strike: (() => Promise<void>) | undefined;
    const raced = await createFixture({
      filesystem: interceptingFileSystem(async (operation) => {
        if (operation === 'atomicWrite') await strike?.();
      }),
    });
    try {
      const path = join(raced.workspace, 'shared.rs');
      await writeFile(path, 'fn main() {}\n');
      await raced.call('read', { path: 'shared.rs' });
      strike = () => writeFile(path, 'fn main() { formatter(); }\n');
      const result = await raced.call('edit', { filePath: 'shared.rs', oldString: 'main', newString: 'start' });
      expect(result.status).toBe('failed');
      expect(ToolResult.text(result)).toBe(
        'file changed while edit was being prepared: shared.rs was not overwritten because its content changed (by another program or a command). Read it again, then retry.',
      );
      expect(await readFile(path, 'utf8')).toBe('fn main() { formatter(); }\n');
      // The table still holds what the model read, so the next edit asks for a new read.
      strike = undefined;
      expect(await raced.text('edit', { filePath: 'shared.rs', oldString: 'main', newString: 'start' })).toBe(
        'shared.rs changed since you last read it (by you via bash, or by the user). Read it again before editing.',
      );
    } finally {
      await raced.cleanup();
    }
  });
});
