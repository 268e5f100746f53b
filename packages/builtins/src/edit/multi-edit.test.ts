import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';

let fixture: BuiltinsFixture;
let atomicWrites: string[];
beforeEach(async () => {
  atomicWrites = [];
  fixture = await createFixture({
    filesystem: interceptingFileSystem((operation, args) => {
      if (operation === 'atomicWrite') atomicWrites.push(String(args[0]));
    }),
  });
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

interface FileChangeView {
  readonly change: { readonly beforeContent: string | null; readonly afterContent: string; readonly additions: number; readonly deletions: number };
}

const config = ['export const config = {', "  name: 'demo',", '  port: 8080,', '  debug: false,', '  retries: 3,', '};', ''].join('\n');

describe('edit with edits', () => {
  it('applies every entry at once: one atomic write, one file_change artifact, one observation update', async () => {
    const path = await seed('config.ts', config);
    const result = await fixture.call('edit', {
      filePath: 'config.ts',
      edits: [
        { oldString: '  port: 8080,', newString: '  port: 9090,' },
        { oldString: '  debug: false,\n', newString: '  debug: true,\n  verbose: true,\n' },
        { oldString: "'demo'", newString: "'service'" },
      ],
    });
    expect(ToolResult.text(result)).toBe('Edited config.ts: 3 replacements at lines 2, 3, 4-5 (+4 -3)');
    const after = ['export const config = {', "  name: 'service',", '  port: 9090,', '  debug: true,', '  verbose: true,', '  retries: 3,', '};', ''].join('\n');
    expect(await readFile(path, 'utf8')).toBe(after);
    expect(atomicWrites).toEqual([path]);
    expect(result.artifacts).toHaveLength(1);
    const change = (result.artifacts[0] as unknown as FileChangeView).change;
    expect([change.beforeContent, change.afterContent, change.additions, change.deletions]).toEqual([config, after, 4, 3]);
    // The table holds the written content: the next edit needs no read, and a change behind its back is caught.
    expect(await fixture.text('edit', { filePath: 'config.ts', oldString: 'retries: 3', newString: 'retries: 5' })).toBe('Edited config.ts:6 (+1 -1)');
    await writeFile(path, 'changed\n');
    expect(await fixture.text('edit', { filePath: 'config.ts', edits: [{ oldString: 'changed', newString: 'x' }] })).toBe(
      'config.ts changed since you last read it (by you via bash, or by the user). Read it again before editing.',
    );
  });

  it('matches every entry against the file as it was, so their order does not matter', async () => {
    const path = await seed('swap.txt', 'alpha\nbeta\n');
    // Applied in sequence, the second entry would turn the first one's "beta" into "gamma".
    expect(
      await fixture.text('edit', {
        filePath: 'swap.txt',
        edits: [
          { oldString: 'alpha', newString: 'beta' },
          { oldString: 'beta', newString: 'gamma' },
        ],
      }),
    ).toBe('Edited swap.txt: 2 replacements at lines 1, 2 (+1 -1)');
    expect(await readFile(path, 'utf8')).toBe('beta\ngamma\n');
    const reversed = await seed('reversed.txt', 'alpha\nbeta\n');
    await fixture.call('edit', {
      filePath: 'reversed.txt',
      edits: [
        { oldString: 'beta', newString: 'gamma' },
        { oldString: 'alpha', newString: 'beta' },
      ],
    });
    expect(await readFile(reversed, 'utf8')).toBe('beta\ngamma\n');
  });

  it('one bad entry leaves the file byte-identical and the error names it by index and why', async () => {
    const original = Buffer.from('\uFEFFfn main() {\r\n    run();\r\n    run();\r\n}\r\n', 'utf8');
    const path = join(fixture.workspace, 'main.rs');
    await writeFile(path, original);
    await fixture.call('read', { path: 'main.rs' });
    const result = await fixture.call('edit', {
      filePath: 'main.rs',
      edits: [
        { oldString: 'fn main()', newString: 'fn start()' },
        { oldString: 'run();', newString: 'go();' },
        { oldString: 'fn helper()', newString: 'fn aid()' },
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(result)).toBe(
      [
        'No edit was applied: 2 of 3 edits cannot be made as sent, so main.rs is unchanged.',
        'edits[1]: oldString occurs 2 times in main.rs. Include more of the surrounding lines so that it occurs once, or set replaceAll to true in this entry to replace every occurrence.',
        'edits[2]: oldString was not found in main.rs.',
        'Each oldString must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows. Fix the entries named above and send all the edits again.',
      ].join('\n'),
    );
    expect(await readFile(path)).toEqual(original);
    expect(result.artifacts).toEqual([]);
    expect(atomicWrites).toEqual([]);
    // With the entries fixed, the whole call goes through, CRLF and BOM kept.
    expect(
      await fixture.text('edit', {
        filePath: 'main.rs',
        edits: [
          { oldString: 'fn main()', newString: 'fn start()' },
          { oldString: 'run();', newString: 'go();', replaceAll: true },
        ],
      }),
    ).toBe('Edited main.rs: 3 replacements from 2 edits at lines 1, 2, 3 (+3 -3)');
    expect(await readFile(path, 'utf8')).toBe('\uFEFFfn start() {\r\n    go();\r\n    go();\r\n}\r\n');
  });

  it('refuses overlapping entries, identical ones included, and accepts touching ones', async () => {
    const content = 'a = 1\nb = 2\nc = 3\nd = 4\n';
    const path = await seed('vars.txt', content);
    const overlapping = await fixture.call('edit', {
      filePath: 'vars.txt',
      edits: [
        { oldString: 'b = 2\nc = 3', newString: 'bc = 23' },
        { oldString: 'd = 4', newString: 'd = 5' },
        { oldString: 'c = 3\n', newString: 'c = 30\n' },
      ],
    });
    expect(overlapping.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(overlapping)).toBe(
      [
        'No edit was applied: 2 of 3 edits cannot be made as sent, so vars.txt is unchanged.',
        'edits[0] and edits[2] overlap at line 3 of vars.txt: every entry is matched against the file as it was before this call, so two entries cannot change the same text. Merge them into one entry.',
        'Fix the entries named above and send all the edits again.',
      ].join('\n'),
    );
    const twice = await fixture.call('edit', {
      filePath: 'vars.txt',
      edits: [
        { oldString: 'a = 1', newString: 'a = 10' },
        { oldString: 'a = 1', newString: 'a = 11' },
      ],
    });
    expect(ToolResult.text(twice)).toContain('edits[0] and edits[1] overlap at line 1 of vars.txt');
    expect(await readFile(path, 'utf8')).toBe(content);
    expect(atomicWrites).toEqual([]);
    // Touching is not overlapping: one entry ends where the next begins.
    expect(
      await fixture.text('edit', {
        filePath: 'vars.txt',
        edits: [
          { oldString: 'a = 1\n', newString: 'A = 1\n' },
          { oldString: 'b = 2', newString: 'B = 2' },
        ],
      }),
    ).toBe('Edited vars.txt: 2 replacements at lines 1, 2 (+2 -2)');
    expect(await readFile(path, 'utf8')).toBe('A = 1\nB = 2\nc = 3\nd = 4\n');
  });

  it('takes exactly one of the two forms; anything else is invalid_arguments and changes nothing', async () => {
    const path = await seed('one.txt', 'x\n');
    const entry = { oldString: 'x', newString: 'y' };
    const cases: Array<[unknown, string]> = [
      [{ filePath: 'one.txt', oldString: 'x', newString: 'y', edits: [entry] }, 'edits: send either oldString and newString (one replacement) or edits (several), not both'],
      [{ filePath: 'one.txt', replaceAll: true, edits: [entry] }, 'replaceAll: with edits, set replaceAll on each entry that needs it instead'],
      [
        { filePath: 'one.txt' },
        'oldString: missing; send oldString and newString for one replacement, or edits for several; newString: missing; send oldString and newString for one replacement, or edits for several',
      ],
      [{ filePath: 'one.txt', oldString: 'x' }, 'newString: missing; send oldString and newString for one replacement, or edits for several'],
      [{ filePath: 'one.txt', edits: [] }, 'edits: Too small: expected array to have >=1 items'],
      [{ filePath: 'one.txt', edits: Array(65).fill(entry) }, 'edits: Too big: expected array to have <=64 items'],
      [{ filePath: 'one.txt', edits: [{ ...entry, replace_all: true }] }, 'edits[0]: unknown field "replace_all" (remove it)'],
      [{ filePath: 'one.txt', edits: [{ oldString: 'x' }] }, 'edits[0].newString: missing required field (expected string)'],
    ];
    for (const [input, problem] of cases) {
      const result = await fixture.call('edit', input);
      expect(result.error?.code).toBe('invalid_arguments');
      expect(ToolResult.text(result)).toBe(`invalid tool input: ${problem}. Fix the arguments to match the input schema of "edit" and call it again.`);
    }
    const entries = await fixture.call('edit', {
      filePath: 'one.txt',
      edits: [entry, { oldString: '', newString: 'z' }, { oldString: 'q', newString: 'q' }],
    });
    expect(ToolResult.text(entries)).toBe(
      [
        'No edit was applied.',
        'edits[1]: oldString is empty, but edits only replace text in an existing file (to create a file, send oldString "" and newString without edits, or use write)',
        'edits[2]: oldString and newString are identical, so this entry would change nothing; drop it or send the new text as newString',
        'Fix the entries named above and send all the edits again.',
      ].join('\n'),
    );
    const big = await fixture.call('edit', { filePath: 'one.txt', edits: [{ oldString: 'x', newString: 'b'.repeat(600_000) }, { oldString: '\n', newString: 'c'.repeat(600_000) }] });
    expect(ToolResult.text(big)).toBe('The newString texts of edits add up to 1,200,000 bytes; edit takes at most 1,048,576 bytes (1 MiB) per call. Make smaller edits.');
    expect(await readFile(path, 'utf8')).toBe('x\n');
    expect(atomicWrites).toEqual([]);
  });

  it('a single entry reports like the single form, and the 1 MiB cap applies to the result', async () => {
    const path = await seed('lib.rs', 'let a = 1;\nlet b = a;\nlet c = a + a;\n');
    expect(await fixture.text('edit', { filePath: 'lib.rs', edits: [{ oldString: 'a', newString: 'alpha', replaceAll: true }] })).toBe(
      'Replaced 4 occurrences in lib.rs (+3 -3)',
    );
    expect(await fixture.text('edit', { filePath: 'lib.rs', edits: [{ oldString: 'let b', newString: 'let beta' }] })).toBe('Edited lib.rs:2 (+1 -1)');
    const grow = await fixture.call('edit', {
      filePath: 'lib.rs',
      edits: [
        { oldString: 'let beta', newString: 'b'.repeat(524_288) },
        { oldString: 'let c', newString: 'c'.repeat(524_288) },
      ],
    });
    expect(ToolResult.text(grow)).toMatch(/^The edited lib\.rs would be 1,048,6\d\d bytes; edit keeps files at most 1,048,576 bytes \(1 MiB\)\./);
    expect(await readFile(path, 'utf8')).toBe('let alpha = 1;\nlet beta = alpha;\nlet c = alpha + alpha;\n');
  });

  it('lists at most ten line ranges in the summary', async () => {
    const lines = Array.from({ length: 14 }, (_, index) => `item ${index + 1}`);
    const path = await seed('items.txt', lines.join('\n') + '\n');
    const edits = lines.map((line) => ({ oldString: `${line}\n`, newString: `${line.toUpperCase()}\n` }));
    expect(await fixture.text('edit', { filePath: 'items.txt', edits })).toBe(
      'Edited items.txt: 14 replacements at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more (+14 -14)',
    );
    expect(await readFile(path, 'utf8')).toBe(lines.map((line) => line.toUpperCase()).join('\n') + '\n');
  });

  it('edits needs a read first, like every edit of an existing file', async () => {
    await writeFile(join(fixture.workspace, 'unread.txt'), 'x\n');
    expect(await fixture.text('edit', { filePath: 'unread.txt', edits: [{ oldString: 'x', newString: 'y' }] })).toBe('Read unread.txt before editing it.');
    const missing = await fixture.call('edit', { filePath: 'nowhere.txt', edits: [{ oldString: 'x', newString: 'y' }] });
    expect(ToolResult.text(missing)).toBe('nowhere.txt does not exist. Check the path (list the parent directory to see what is there).');
  });
});
