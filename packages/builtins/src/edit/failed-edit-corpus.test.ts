import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

/** One case of `bench/edit-corpus.json` (the bench prints the rescue rates of the same cases). */
interface CorpusCase {
  readonly id: string;
  readonly drift: string;
  readonly eol?: string;
  readonly file: readonly string[];
  readonly oldStringEol?: string;
  readonly oldString: readonly string[];
  readonly newString: readonly string[];
  readonly expect: { readonly level: string; readonly file: readonly string[] } | { readonly refused: 'not_found' | 'ambiguous' };
}

const corpus = JSON.parse(await readFile(new URL('../../bench/edit-corpus.json', import.meta.url), 'utf8')) as { cases: CorpusCase[] };

/** The words the summary uses for each level (the exact step's CRLF reading says nothing). */
const NOTES: Record<string, string | undefined> = {
  'line-endings': 'matched after ignoring line endings',
  'trailing-whitespace': 'matched after ignoring trailing whitespace',
  indentation: 'matched after shifting its indentation',
  typography: 'matched after treating typographic quotes, dashes and spaces as plain ones',
};

let fixture: BuiltinsFixture;
beforeAll(async () => {
  fixture = await createFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

describe('a corpus of realistic failed edits (issue 17)', () => {
  it('has at least 30 cases, each a real failure of the exact match', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.cases.map((entry) => entry.id)).size).toBe(corpus.cases.length);
    for (const entry of corpus.cases) {
      const content = entry.file.join(entry.eol ?? '\n');
      expect(content.includes(entry.oldString.join(entry.oldStringEol ?? '\n')), entry.id).toBe(false);
    }
  });

  for (const entry of corpus.cases) {
    const outcome = 'level' in entry.expect ? `is rescued at the ${entry.expect.level} level` : `stays refused (${entry.expect.refused})`;
    it(`${entry.id} ${outcome}`, async () => {
      const eol = entry.eol ?? '\n';
      const name = `${entry.id}.txt`;
      const path = join(fixture.workspace, name);
      const before = entry.file.join(eol);
      await writeFile(path, before);
      await fixture.call('read', { path: name });
      const result = await fixture.call('edit', {
        filePath: name,
        oldString: entry.oldString.join(entry.oldStringEol ?? '\n'),
        newString: entry.newString.join(entry.oldStringEol ?? '\n'),
      });
      const text = ToolResult.text(result);
      if ('level' in entry.expect) {
        expect(result.status, text).toBe('succeeded');
        expect(await readFile(path, 'utf8')).toBe(entry.expect.file.join(eol));
        const note = NOTES[entry.expect.level];
        const silentCrlf = entry.expect.level === 'line-endings' && entry.oldStringEol === undefined;
        if (silentCrlf) expect(text).not.toContain('matched after');
        else expect(text).toContain(`oldString ${note}`);
      } else {
        expect(result.error?.code, text).toBe('invalid_arguments');
        expect(text).toMatch(entry.expect.refused === 'ambiguous' ? /^oldString is not in .* as given; .* it matches 2 places/ : /^oldString was not found in /);
        expect(await readFile(path, 'utf8')).toBe(before);
      }
    });
  }
});
