import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileObservations } from '../observations/file-observations.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function seed(name: string, content: string, target: BuiltinsFixture = fixture): Promise<string> {
  const path = join(target.workspace, name);
  await writeFile(path, content);
  await target.call('read', { path: name });
  return path;
}

const lines = (...text: string[]) => text.join('\n');

const loader = lines(
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function loadConfig(path: string) {',
  "  const text = await readFile(path, 'utf8');",
  '  const parsed = JSON.parse(text);',
  '  if (!parsed.name) {',
  "    throw new Error('config needs a name');",
  '  }',
  '  return parsed;',
  '}',
  '',
);

const EXACT_RULE = 'It must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows.';

describe('errors that teach', () => {
  it('not found: shows the closest region, numbered like read, and says what differs', async () => {
    await seed('loader.ts', loader);
    const result = await fixture.call('edit', {
      filePath: 'loader.ts',
      oldString: "  const text = await readFile(path, 'utf-8');\n  const parsed = JSON.parse(text);",
      newString: "  const text = await readFile(path, 'latin1');\n  const parsed = JSON.parse(text);",
    });
    expect(result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(result)).toBe(
      [
        `oldString was not found in loader.ts. ${EXACT_RULE} The closest text is at lines 4-5:`,
        "4\t  const text = await readFile(path, 'utf8');",
        '5\t  const parsed = JSON.parse(text);',
        `What differs: line 4 differs: the file has "const text = await readFile(path, 'utf8');", oldString "const text = await readFile(path, 'utf-8');". Copy the text to replace from these lines and call edit again.`,
      ].join('\n'),
    );
    expect(await readFile(join(fixture.workspace, 'loader.ts'), 'utf8')).toBe(loader);
  });

  it('not found: names lines oldString leaves out or adds, tabs for spaces, and read line numbers', async () => {
    await seed('loader.ts', loader);
    const missing = await fixture.text('edit', {
      filePath: 'loader.ts',
      oldString: lines('  if (!parsed.name) {', '  }', '  return parsed;'),
      newString: 'x',
    });
    expect(missing).toContain('The closest text is at lines 6-9:\n6\t  if (!parsed.name) {\n7\t    throw new Error');
    expect(missing).toContain(`What differs: oldString leaves out line 7 of the file: "throw new Error('config needs a name');".`);
    const added = await fixture.text('edit', {
      filePath: 'loader.ts',
      oldString: lines("  const text = await readFile(path, 'utf8');", '  console.log(text);', '  const parsed = JSON.parse(text);'),
      newString: 'x',
    });
    expect(added).toContain('What differs: oldString has a line the file does not have after line 4: "console.log(text);".');
    const numbered = await fixture.text('edit', {
      filePath: 'loader.ts',
      oldString: lines('5\t  const parsed = JSON.parse(text);', '6\t  if (!parsed.name) {'),
      newString: 'x',
    });
    expect(numbered).toContain('The closest text is at lines 5-6:');
    expect(numbered).toContain('What differs: oldString starts its lines with line numbers as read shows them ("12\\t"); leave those out.');
    const elided = await fixture.text('edit', {
      filePath: 'loader.ts',
      oldString: lines('export async function loadConfig(path: string) {', '  // ...', '}'),
      newString: 'x',
    });
    expect(elided).toContain('The closest text is at line 3:\n3\texport async function loadConfig(path: string) {\n');
    expect(elided).toContain('What differs: line 2 of oldString ("// ...") stands for omitted text; oldString must spell out every line it replaces.');
  });

  it('not found: no false hints when the file itself has numbered lines or `...` bodies', async () => {
    await seed('fruit.tsv', '1\tapple\t3\n2\tpear\t5\n3\tplum\t7\n');
    const tsv = await fixture.text('edit', { filePath: 'fruit.tsv', oldString: '1\tapple\t4\n2\tpear\t5', newString: 'x' });
    expect(tsv).toContain('The closest text is at lines 1-2:');
    expect(tsv).not.toContain('line numbers as read shows them');
    await seed('proto.py', lines('class Runner(Protocol):', '    def run(self) -> None:', '        ...', '    def stop(self) -> None:', '        ...', ''));
    const stub = await fixture.text('edit', { filePath: 'proto.py', oldString: lines('    def run(self) -> None:', '        ...', '    def halt(self) -> None:'), newString: 'x' });
    expect(stub).toContain('The closest text is at lines 2-4:');
    expect(stub).toContain('What differs: line 4 differs: the file has "def stop(self) -> None:", oldString "def halt(self) -> None:".');
    expect(stub).not.toContain('omitted');
  });

  it('not found: a long region shows ten lines around where it differs', async () => {
    const file = Array.from({ length: 40 }, (_, index) => `  entry(${index + 1}, "value number ${index + 1}");`);
    await seed('entries.js', file.join('\n') + '\n');
    const wanted = file.slice(4, 18);
    wanted[11] = '  entry(16, "value numbr 16");';
    const text = await fixture.text('edit', { filePath: 'entries.js', oldString: wanted.join('\n'), newString: 'x' });
    const shown = file.slice(8, 18).map((line, offset) => `${9 + offset}\t${line}`);
    expect(text).toBe(
      [
        `oldString was not found in entries.js. ${EXACT_RULE} The closest text is at lines 5-18; here are lines 9-18, around where it differs:`,
        ...shown,
        'What differs: line 16 differs: the file has "entry(16, \\"value number 16\\");", oldString "entry(16, \\"value numbr 16\\");". Copy the text to replace from these lines and call edit again.',
      ].join('\n'),
    );
  });

  it('not found with nothing close: §7.3 text, without a region', async () => {
    await seed('loader.ts', loader);
    expect(await fixture.text('edit', { filePath: 'loader.ts', oldString: 'class Registry {}', newString: 'x' })).toBe(
      `oldString was not found in loader.ts. ${EXACT_RULE} Read the file again and copy the text to replace.`,
    );
  });

  it('several occurrences: the lines of the first few, and more context or replaceAll', async () => {
    const content = Array.from({ length: 14 }, (_, index) => (index % 2 === 0 ? 'retry();' : `step${index}();`)).join('\n') + '\n';
    await seed('steps.js', content);
    expect(await fixture.text('edit', { filePath: 'steps.js', oldString: 'retry();', newString: 'retry(3);' })).toBe(
      'oldString occurs 7 times in steps.js (at lines 1, 3, 5, 7, 9 and 2 more). Include more of the surrounding lines so that it occurs once, or set replaceAll to true to replace every occurrence.',
    );
    expect(await fixture.text('edit', { filePath: 'steps.js', oldString: 'retry();\nstep1();\nretry();\nstep3', newString: 'x' })).toBe('Edited steps.js:1 (+1 -4)');
    // In a file of at most ten lines (no longer than a shown region) the count is the whole text, as in §7.3.
    await seed('short.txt', 'x = 1\ny = 2\nx = 1\n');
    expect(await fixture.text('edit', { filePath: 'short.txt', oldString: 'x = 1', newString: 'x = 2' })).toBe(
      'oldString occurs 2 times in short.txt. Include more of the surrounding lines so that it occurs once, or set replaceAll to true to replace every occurrence.',
    );
  });

  describe('the repeat notice', () => {
    const notice = (path: string) =>
      `This is the same edit as your last one on ${path}, which failed the same way, and the file has not changed since: sending it again will not help. Read ${path} again (the lines you want to change) and copy oldString from what read shows.`;
    const wrong = { filePath: 'loader.ts', oldString: "  const text = await readFile(path, 'utf-8');", newString: 'x' };

    it('is added when the same call fails the same way on the same content, and only then', async () => {
      const path = await seed('loader.ts', loader);
      const first = await fixture.text('edit', wrong);
      expect(first).toMatch(/^oldString was not found in loader\.ts\./);
      expect(first).not.toContain('same edit');
      expect(await fixture.text('edit', wrong)).toBe(`${first}\n${notice('loader.ts')}`);
      expect(await fixture.text('edit', wrong)).toBe(`${first}\n${notice('loader.ts')}`);
      // Another failure in between: the next repeat is not "the same as the last one".
      const ambiguous = { filePath: 'loader.ts', oldString: 'parsed', newString: 'config' };
      const firstAmbiguous = await fixture.text('edit', ambiguous);
      expect(firstAmbiguous).toMatch(/^oldString occurs 3 times in loader\.ts\./);
      expect(await fixture.text('edit', ambiguous)).toBe(`${firstAmbiguous}\n${notice('loader.ts')}`);
      expect(await fixture.text('edit', wrong)).toBe(first);
      // The file changed (and was read again): the same call is a new attempt.
      await writeFile(path, loader.replace('return parsed;', 'return parsed ?? {};'));
      await fixture.call('read', { path: 'loader.ts' });
      expect(await fixture.text('edit', wrong)).not.toContain('same edit');
      // A success forgets the failure.
      expect(await fixture.text('edit', { filePath: 'loader.ts', oldString: "'utf8'", newString: "'utf-8'" })).toBe('Edited loader.ts:4 (+1 -1)');
      const again = { filePath: 'loader.ts', oldString: "'utf-16'", newString: 'x' };
      await fixture.call('edit', again);
      await fixture.call('edit', { filePath: 'loader.ts', oldString: "'utf-8'", newString: "'utf8'" });
      expect(await fixture.text('edit', again)).not.toContain('same edit');
    });

    it('covers edits, and is per session', async () => {
      await seed('loader.ts', loader);
      const call = { filePath: 'loader.ts', edits: [{ oldString: 'loadConfig(', newString: 'readConfig(' }, { oldString: 'JSON.parse(txt)', newString: 'parse(text)' }] };
      const first = await fixture.text('edit', call);
      expect(first).toMatch(/^No edit was applied: 1 of 2 edits cannot be made as sent/);
      expect(await fixture.text('edit', call)).toBe(`${first}\n${notice('loader.ts')}`);
      // Another session (its own observation table) has no memory of this one's failures.
      const other = await createFixture({ observations: new FileObservations() });
      try {
        await seed('loader.ts', loader, other);
        expect(await other.text('edit', call)).toBe(first);
      } finally {
        await other.cleanup();
      }
    });
  });
});
