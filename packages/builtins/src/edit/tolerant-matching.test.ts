import { readFile, writeFile } from 'node:fs/promises';
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

async function seed(name: string, content: string): Promise<string> {
  const path = join(fixture.workspace, name);
  await writeFile(path, content);
  await fixture.call('read', { path: name });
  return path;
}

/** Calls edit expecting a refusal: the code, the exact text, and the file byte-identical. */
async function expectRefusal(name: string, input: Record<string, unknown>, text: string): Promise<void> {
  const path = join(fixture.workspace, name);
  const before = await readFile(path);
  const result = await fixture.call('edit', { filePath: name, ...input });
  expect(result.error?.code).toBe('invalid_arguments');
  expect(ToolResult.text(result)).toBe(text);
  expect(result.artifacts).toEqual([]);
  expect(await readFile(path)).toEqual(before);
}

interface FileChangeView {
  readonly change: { readonly beforeContent: string | null; readonly afterContent: string; readonly hunks: readonly { readonly lines: readonly string[] }[] };
}

const lines = (...text: string[]) => text.join('\n');

describe('tolerant matching, only after the exact step finds nothing', () => {
  describe('level 1: line endings', () => {
    it('matches CRLF in oldString against an LF file, and the file stays LF', async () => {
      const path = await seed('le.txt', 'one\ntwo\nthree\n');
      expect(await fixture.text('edit', { filePath: 'le.txt', oldString: 'one\r\ntwo\r\n', newString: 'uno\r\ndos\r\n' })).toBe(
        'Edited le.txt:1-2 (+2 -2); oldString matched after ignoring line endings (CRLF vs LF)',
      );
      expect(await readFile(path, 'utf8')).toBe('uno\ndos\nthree\n');
    });

    it('refuses two candidates, and replaces both with replaceAll', async () => {
      const path = await seed('le.txt', 'a\nb\nc\na\nb\n');
      await expectRefusal(
        'le.txt',
        { oldString: 'a\r\nb', newString: 'ab' },
        'oldString is not in le.txt as given; with line endings ignored it matches 2 places (at lines 1 and 4). Include more of the surrounding lines so that it matches one place, or set replaceAll to true to replace every occurrence.',
      );
      expect(await fixture.text('edit', { filePath: 'le.txt', oldString: 'a\r\nb', newString: 'ab', replaceAll: true })).toBe(
        'Replaced 2 occurrences in le.txt (+2 -4); oldString matched after ignoring line endings (CRLF vs LF)',
      );
      expect(await readFile(path, 'utf8')).toBe('ab\nc\nab\n');
    });
  });

  describe('level 2: trailing whitespace', () => {
    const greet = ['def greet(name):   ', '    message = "hi " + name  ', '    return message', ''].join('\n');

    it('ignores spaces and tabs at line ends; the artifact holds the file as it was', async () => {
      const path = await seed('greet.py', greet);
      const result = await fixture.call('edit', {
        filePath: 'greet.py',
        oldString: 'def greet(name):\n    message = "hi " + name\n',
        newString: 'def greet(name, mark):\n    message = "hi " + name + mark\n',
      });
      expect(ToolResult.text(result)).toBe('Edited greet.py:1-2 (+2 -2); oldString matched after ignoring trailing whitespace');
      const after = ['def greet(name, mark):', '    message = "hi " + name + mark', '    return message', ''].join('\n');
      expect(await readFile(path, 'utf8')).toBe(after);
      const change = (result.artifacts[0] as unknown as FileChangeView).change;
      expect(change.beforeContent).toBe(greet);
      expect(change.afterContent).toBe(after);
      expect(change.hunks[0]?.lines).toEqual([
        '-def greet(name):   ',
        '-    message = "hi " + name  ',
        '+def greet(name, mark):',
        '+    message = "hi " + name + mark',
        '     return message',
      ]);
    });

    it('also when oldString has the trailing whitespace and the file does not', async () => {
      const path = await seed('t.js', 'const a = 1;\nconst b = 2;\n');
      expect(await fixture.text('edit', { filePath: 't.js', oldString: 'const a = 1;\t ', newString: 'const a = 10;' })).toBe(
        'Edited t.js:1 (+1 -1); oldString matched after ignoring trailing whitespace',
      );
      expect(await readFile(path, 'utf8')).toBe('const a = 10;\nconst b = 2;\n');
      // Trailing whitespace in oldString means "end of line": a longer line is not a match.
      const longer = await fixture.call('edit', { filePath: 't.js', oldString: 'const  ', newString: 'let ' });
      expect(ToolResult.text(longer)).toMatch(/^oldString was not found in t\.js\./);
      expect(await readFile(path, 'utf8')).toBe('const a = 10;\nconst b = 2;\n');
    });

    it('refuses two candidates at this level', async () => {
      await seed('two.txt', 'x = 1  \ny = 2\nx = 1\ny = 2 \n');
      await expectRefusal(
        'two.txt',
        { oldString: 'x = 1\ny = 2\n', newString: 'x = 3\n' },
        'oldString is not in two.txt as given; with trailing whitespace ignored it matches 2 places (at lines 1 and 3). Include more of the surrounding lines so that it matches one place, or set replaceAll to true to replace every occurrence.',
      );
    });
  });

  describe('level 3: a consistent indentation shift of the whole block', () => {
    it('matches a dedented block and re-indents newString by the same shift', async () => {
      const path = await seed(
        'greeter.py',
        lines('class Greeter:', '    def greet(self, name):', '        if name:', '            return "hi " + name', '        return "hi"', ''),
      );
      const result = await fixture.text('edit', {
        filePath: 'greeter.py',
        oldString: lines('def greet(self, name):', '    if name:', '        return "hi " + name', '    return "hi"'),
        newString: lines('def greet(self, name, loud=False):', '    if name:', '        text = "hi " + name', '        return text.upper() if loud else text', '    return "hi"'),
      });
      expect(result).toBe(
        'Edited greeter.py:2-6 (+3 -2); oldString matched after shifting its indentation from no indentation to 4 spaces (newString was re-indented the same way)',
      );
      expect(await readFile(path, 'utf8')).toBe(
        lines(
          'class Greeter:',
          '    def greet(self, name, loud=False):',
          '        if name:',
          '            text = "hi " + name',
          '            return text.upper() if loud else text',
          '        return "hi"',
          '',
        ),
      );
    });

    it('shifts tabs too, and moves less-indented newString lines by the same number of columns', async () => {
      const path = await seed('main.go', 'func main() {\n\tfor _, x := range xs {\n\t\tfmt.Println(x)\n\t}\n}\n');
      expect(
        await fixture.text('edit', {
          filePath: 'main.go',
          oldString: 'for _, x := range xs {\n\tfmt.Println(x)\n}\n',
          newString: 'for _, x := range xs {\n\tfmt.Println(x)\n\tcount++\n}\n',
        }),
      ).toBe('Edited main.go:2-5 (+1 -0); oldString matched after shifting its indentation from no indentation to 1 tab (newString was re-indented the same way)');
      expect(await readFile(path, 'utf8')).toBe('func main() {\n\tfor _, x := range xs {\n\t\tfmt.Println(x)\n\t\tcount++\n\t}\n}\n');

      const yaml = await seed('ci.yml', lines('jobs:', '  test:', '    steps:', '      - run: npm test', '      - run: npm run lint', ''));
      expect(
        await fixture.text('edit', {
          filePath: 'ci.yml',
          oldString: lines('        steps:', '          - run: npm test'),
          newString: lines('        steps:', '      - run: npm ci', '          - run: npm test'),
        }),
      ).toBe('Edited ci.yml:3-5 (+1 -0); oldString matched after shifting its indentation from 8 spaces to 4 spaces (newString was re-indented the same way)');
      expect(await readFile(yaml, 'utf8')).toBe(lines('jobs:', '  test:', '    steps:', '  - run: npm ci', '      - run: npm test', '      - run: npm run lint', ''));
    });

    it('refuses two blocks that both match with a shift', async () => {
      await seed('twice.py', lines('if a:', '    run()', '    stop()', 'def f():', '        run()', '        stop()', ''));
      await expectRefusal(
        'twice.py',
        { oldString: '  run()\n  stop()', newString: '  go()' },
        'oldString is not in twice.py as given; with its indentation shifted it matches 2 places (at lines 2 and 5). Include more of the surrounding lines so that it matches one place, or set replaceAll to true to replace every occurrence.',
      );
    });

    it('never matches inconsistent indentation, a single line at another depth, or a block by its first and last lines only', async () => {
      await seed('tabs.js', 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n');
      // Spaces where the file has tabs: the relative indentation differs, so it is not a shift.
      const tabs = await fixture.call('edit', { filePath: 'tabs.js', oldString: '  if (x) {\n    return 1;\n  }', newString: '  if (y) {\n    return 2;\n  }' });
      expect(tabs.error?.code).toBe('invalid_arguments');
      expect(ToolResult.text(tabs)).toContain('What differs: lines 2, 3 and 4 are indented with tabs in the file, spaces in oldString.');
      await seed('depth.py', lines('def f():', '    return 1', 'return 2', ''));
      expect((await fixture.call('edit', { filePath: 'depth.py', oldString: '    return 2', newString: '    return 3' })).error?.code).toBe('invalid_arguments');
      await seed('anchors.js', lines('start();', '  middleA();', 'end();', ''));
      expect((await fixture.call('edit', { filePath: 'anchors.js', oldString: lines('  start();', '    middleB();', '  end();'), newString: 'x();' })).error?.code).toBe(
        'invalid_arguments',
      );
      expect(await readFile(join(fixture.workspace, 'tabs.js'), 'utf8')).toBe('function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n');
      expect(await readFile(join(fixture.workspace, 'depth.py'), 'utf8')).toBe(lines('def f():', '    return 1', 'return 2', ''));
      expect(await readFile(join(fixture.workspace, 'anchors.js'), 'utf8')).toBe(lines('start();', '  middleA();', 'end();', ''));
    });
  });

  describe('level 4: typographic quotes, dashes and spaces', () => {
    it('matches plain text against typographic text and the other way round; newString is used as given', async () => {
      const path = await seed('notes.md', 'The “quick” fox — it’s fast.\nSecond line.\n');
      expect(await fixture.text('edit', { filePath: 'notes.md', oldString: 'The "quick" fox - it\'s fast.', newString: 'The "slow" fox - it\'s slow.' })).toBe(
        'Edited notes.md:1 (+1 -1); oldString matched after treating typographic quotes, dashes and spaces as plain ones (newString was used as given)',
      );
      expect(await readFile(path, 'utf8')).toBe('The "slow" fox - it\'s slow.\nSecond line.\n');
      const code = await seed('hello.py', 'print("hello")\nprice = "10\u00A0€"\n');
      expect(await fixture.text('edit', { filePath: 'hello.py', oldString: 'print(“hello”)\nprice = "10 €"', newString: 'print("hi")\nprice = "11 €"' })).toBe(
        'Edited hello.py:1-2 (+2 -2); oldString matched after treating typographic quotes, dashes and spaces as plain ones (newString was used as given)',
      );
      expect(await readFile(code, 'utf8')).toBe('print("hi")\nprice = "11 €"\n');
    });

    it('refuses two lines that are the same once made plain', async () => {
      await seed('say.md', 'say “hi” — ok\nsay "hi" – ok\n');
      await expectRefusal(
        'say.md',
        { oldString: 'say "hi" - ok', newString: 'say bye' },
        'oldString is not in say.md as given; with typographic quotes, dashes and spaces taken as plain ones it matches 2 places (at lines 1 and 2). Include more of the surrounding lines so that it matches one place, or set replaceAll to true to replace every occurrence.',
      );
    });
  });

  it('refuses a tolerant match whose text already reads as newString: nothing is written', async () => {
    const path = await seed('same.py', 'x = 1\ny = 2\n');
    const result = await fixture.call('edit', { filePath: 'same.py', oldString: 'x = 1  ', newString: 'x = 1' });
    expect(result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(result)).toBe(
      'same.py already reads like that: the text oldString matched (after ignoring trailing whitespace) equals newString, so the edit would change nothing. Nothing was written.',
    );
    expect(result.artifacts).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('x = 1\ny = 2\n');
  });

  it('keeps a CRLF file CRLF when a tolerant level matched, new lines included', async () => {
    const path = await seed('win.cs', '  Setup();  \r\n  Run();\r\n  Stop();\r\n');
    expect(await fixture.text('edit', { filePath: 'win.cs', oldString: 'Setup();\nRun();\n', newString: 'Setup();\nWarmUp();\nRun();\n' })).toBe(
      'Edited win.cs:1-3 (+2 -1); oldString matched after shifting its indentation from no indentation to 2 spaces (newString was re-indented the same way)',
    );
    expect(await readFile(path, 'utf8')).toBe('  Setup();\r\n  WarmUp();\r\n  Run();\r\n  Stop();\r\n');
  });

  it('works per entry in edits, and says which entry matched how', async () => {
    const path = await seed('app.py', lines('def main():  ', '    load()', '    run()', 'print(“done”)', ''));
    expect(
      await fixture.text('edit', {
        filePath: 'app.py',
        edits: [
          { oldString: 'def main():\n', newString: 'def main(argv):\n' },
          { oldString: 'load()\nrun()', newString: 'load(argv)\nrun()' },
          { oldString: 'print("done")', newString: 'print("ok")' },
        ],
      }),
    ).toBe(
      'Edited app.py: 3 replacements at lines 1, 2-3, 4 (+3 -3); edits[0] matched after ignoring trailing whitespace; edits[1] matched after shifting its indentation from no indentation to 4 spaces (newString was re-indented the same way); edits[2] matched after treating typographic quotes, dashes and spaces as plain ones (newString was used as given)',
    );
    expect(await readFile(path, 'utf8')).toBe(lines('def main(argv):', '    load(argv)', '    run()', 'print("ok")', ''));
  });
});
