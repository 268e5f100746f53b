import { createHash } from 'node:crypto';
import { applyPatch, diffLines, formatPatch, type StructuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BuiltinsError,
  MYERS_TRACE_LIMIT,
  createFileChange,
  diffFileContents,
  parseFileChangeArtifact,
  type FileChangeArtifact,
  type FileChangeHunk,
  type FileChangeInput,
} from '../index.js';

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
const bytes = (text: string) => Buffer.from(text, 'utf8');
const numbered = (count: number, name = (line: number) => `line ${line}`) =>
  Array.from({ length: count }, (_, index) => `${name(index + 1)}\n`).join('');

function change(before: string | null, after: string, extra: Partial<FileChangeInput> = {}): FileChangeArtifact {
  return createFileChange({
    changeId: 'call_7',
    path: 'src/lib.rs',
    realPath: '/ws/src/lib.rs',
    displayPath: 'src/lib.rs',
    before: before === null ? null : bytes(before),
    after: bytes(after),
    ...extra,
  });
}

/** Our hunks as the `diff` package's `StructuredPatch` (they have its hunk shape). */
function asPatch(hunks: readonly FileChangeHunk[]): StructuredPatch {
  return { oldFileName: 'a', newFileName: 'b', oldHeader: undefined, newHeader: undefined, hunks: hunks.map((hunk) => ({ ...hunk, lines: [...hunk.lines] })) };
}

/** The hunks must turn `before` into `after` for the `diff` package's own patcher. */
function applyHunks(before: string, artifact: FileChangeArtifact): string | false {
  return applyPatch(before, asPatch(artifact.change.hunks));
}

describe('§8.4 file_change artifact fields', () => {
  it('a modification carries every field of the table, exactly', () => {
    const before = numbered(10);
    const after = before.replace('line 5\n', 'line five\nline 5b\n');
    const artifact = createFileChange({
      changeId: 'call_7',
      path: './src/../src/lib.rs',
      realPath: '/ws/src/lib.rs',
      displayPath: 'src/lib.rs',
      before: bytes(before),
      after: bytes(after),
      beforeHash: sha256(before),
      afterHash: sha256(after),
      mode: 0o644,
    });
    expect(artifact).toStrictEqual({
      kind: 'file_change',
      change: {
        changeId: 'call_7',
        path: './src/../src/lib.rs',
        realPath: '/ws/src/lib.rs',
        displayPath: 'src/lib.rs',
        kind: 'modified',
        additions: 2,
        deletions: 1,
        hunks: [
          {
            oldStart: 2,
            oldLines: 7,
            newStart: 2,
            newLines: 8,
            lines: [' line 2', ' line 3', ' line 4', '-line 5', '+line five', '+line 5b', ' line 6', ' line 7', ' line 8'],
          },
        ],
        beforeHash: sha256(before),
        afterHash: sha256(after),
        beforeContent: before,
        afterContent: after,
        mode: 0o644,
        undone: false,
      },
    });
  });

  it('a created file has kind created, no before side, and every line added', () => {
    const artifact = change(null, 'a\nb\nc');
    expect(artifact.change).toStrictEqual({
      changeId: 'call_7',
      path: 'src/lib.rs',
      realPath: '/ws/src/lib.rs',
      displayPath: 'src/lib.rs',
      kind: 'created',
      additions: 3,
      deletions: 0,
      hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 3, lines: ['+a', '+b', '+c', '\\ No newline at end of file'] }],
      beforeHash: null,
      afterHash: sha256('a\nb\nc'),
      beforeContent: null,
      afterContent: 'a\nb\nc',
      undone: false,
    });
    expect(formatPatch(asPatch(artifact.change.hunks))).toContain('@@ -0,0 +1,3 @@');
  });

  it('an empty file created is a change with no lines and no hunks', () => {
    const artifact = change(null, '');
    expect(artifact.change).toMatchObject({ kind: 'created', additions: 0, deletions: 0, hunks: [], afterHash: sha256('') });
  });

  it('hunks keep three lines of context and split when changes are more than six lines apart', () => {
    const before = numbered(30);
    const near = before.replace('line 10\n', 'ten\n').replace('line 17\n', 'seventeen\n'); // 6 equal lines between
    expect(change(before, near).change.hunks.map((hunk) => [hunk.oldStart, hunk.oldLines])).toEqual([[7, 14]]);
    const far = before.replace('line 10\n', 'ten\n').replace('line 18\n', 'eighteen\n'); // 7 equal lines between
    const hunks = change(before, far).change.hunks;
    expect(hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines])).toEqual([
      [7, 7, 7, 7],
      [15, 7, 15, 7],
    ]);
    expect(hunks[1]!.lines).toEqual([' line 15', ' line 16', ' line 17', '-line 18', '+eighteen', ' line 19', ' line 20', ' line 21']);
  });

  it('context is cut at the start and the end of the file', () => {
    const artifact = change('a\nb\nc\n', 'A\nb\nC\n');
    expect(artifact.change.hunks).toEqual([{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: ['-a', '+A', ' b', '-c', '+C'] }]);
  });

  it('a missing final newline, CRLF endings and a BOM are part of the exact diff', () => {
    const noNewline = change('one\ntwo', 'one\ntwo\n');
    expect(noNewline.change.hunks[0]!.lines).toEqual([' one', '-two', '\\ No newline at end of file', '+two']);
    expect([noNewline.change.additions, noNewline.change.deletions]).toEqual([1, 1]);

    const crlf = change('a\r\nb\r\n', 'a\r\nB\r\n');
    expect(crlf.change.hunks[0]!.lines).toEqual([' a\r', '-b\r', '+B\r']);
    expect(crlf.change.afterContent).toBe('a\r\nB\r\n');

    const bom = createFileChange({ changeId: 'c', path: 'x', realPath: '/x', displayPath: 'x', before: bytes('\uFEFFa\n'), after: bytes('\uFEFFb\n') });
    expect(bom.change.beforeContent).toBe('\uFEFFa\n');
    expect(bom.change.beforeHash).toBe(sha256(bytes('\uFEFFa\n')));
  });

  it('additions and deletions are exact: a replace-all of an identifier counts each changed line once', () => {
    const before = Array.from({ length: 200 }, (_, index) => (index % 20 === 0 ? `use oldName; // ${index}\n` : `other ${index}\n`)).join('');
    const after = before.replaceAll('oldName', 'newName');
    const artifact = change(before, after);
    expect([artifact.change.additions, artifact.change.deletions]).toEqual([10, 10]);
    expect(artifact.change.hunks).toHaveLength(10);
    expect(applyHunks(before, artifact)).toBe(after);
  });

  it('survives a JSON round trip through a store and parses back', () => {
    const artifact = change('a\nb\n', 'a\nc\n', { mode: 0o600 });
    const back: unknown = JSON.parse(JSON.stringify(artifact));
    const parsed = parseFileChangeArtifact(back);
    expect(parsed).toEqual({ ok: true, artifact });
    expect(parseFileChangeArtifact({ ...artifact, change: { ...artifact.change, beforeHash: null } })).toEqual({
      ok: false,
      message: 'not a file_change artifact: change.kind: beforeHash and beforeContent are null exactly when kind is "created"',
    });
    expect(parseFileChangeArtifact({ kind: 'file_change' })).toMatchObject({ ok: false, message: expect.stringMatching(/^not a file_change artifact: change: /) });
    expect(parseFileChangeArtifact({ ...artifact, change: { ...artifact.change, afterHash: 'ABC' } })).toMatchObject({ ok: false });
  });

  it('refuses what is not a change: identical bytes, a hash of other bytes, non-UTF-8 bytes', () => {
    expect(() => change('same\n', 'same\n')).toThrow(BuiltinsError);
    expect(() => change('same\n', 'same\n')).toThrow('createFileChange(call_7): the content did not change; a result without a change has no file_change artifact (§7.2).');
    expect(() => change('a\n', 'b\n', { afterHash: sha256('c\n') })).toThrow(/afterHash [0-9a-f]{64} is not the SHA-256 of the after content/);
    expect(() => change(null, 'b\n', { beforeHash: sha256('') })).toThrow('createFileChange(call_7): a created file has no beforeHash.');
    expect(() =>
      createFileChange({ changeId: 'c', path: 'x', realPath: '/x', displayPath: 'x', before: null, after: Uint8Array.from([0x66, 0xff, 0x0a]) }),
    ).toThrow('createFileChange(c): the after content is not UTF-8 text; file changes record text files only (§7.2).');
  });
});

describe('§8.4 diff: Myers, and the prefix/suffix fallback above the trace limit', () => {
  const line = fc.constantFrom('a\n', 'b\n', 'c\n', '}\n', '\n', 'x\r\n', 'tail');
  const text = fc.array(line, { maxLength: 40 }).map((lines) => lines.join(''));

  it('the hunks turn the old text into the new one and the counts match them (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        fc.pre(before !== after);
        const artifact = change(before, after);
        expect(applyHunks(before, artifact)).toBe(after);
        const marked = artifact.change.hunks.flatMap((hunk) => hunk.lines);
        expect(marked.filter((entry) => entry.startsWith('+')).length).toBe(artifact.change.additions);
        expect(marked.filter((entry) => entry.startsWith('-')).length).toBe(artifact.change.deletions);
      }),
      { numRuns: 300 },
    );
  });

  it('below the limit the script is as short as the diff package finds it unaided (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const ours = diffFileContents(before, after);
        const theirs = diffLines(before, after);
        const theirTotal = theirs.filter((part) => part.added || part.removed).reduce((sum, part) => sum + part.count, 0);
        expect(ours.algorithm).toBe('myers');
        expect(ours.additions + ours.deletions).toBe(theirTotal);
      }),
      { numRuns: 300 },
    );
  });

  /**
   * `count` distinct lines, and the same with `swaps` pairs of neighbours swapped, spread from the
   * first line to the last (so no common first or last line shortens the sequences): an edit
   * distance of 2 per swap.
   */
  function swapped(count: number, swaps: number): [string, string] {
    const lines = Array.from({ length: count }, (_, index) => `line ${index}\n`);
    const changed = [...lines];
    for (let swap = 0; swap < swaps; swap++) {
      const at = Math.round((swap * (count - 2)) / (swaps - 1));
      [changed[at], changed[at + 1]] = [changed[at + 1]!, changed[at]!];
    }
    return [lines.join(''), changed.join('')];
  }

  it('diff_switches_to_prefix_suffix_above_the_trace_limit: (D + 1) × (2 × (N + M) + 1) cells', () => {
    // 2,000 + 2,000 lines: (D + 1) × 8,001 ≤ 4,000,000 ⇔ D ≤ 498.
    expect(Math.floor(MYERS_TRACE_LIMIT / 8001) - 1).toBe(498);
    const [before, within] = swapped(2000, 249); // D = 498
    const inside = diffFileContents(before, within);
    expect([inside.algorithm, inside.additions, inside.deletions]).toEqual(['myers', 249, 249]);
    expect(inside.hunks[0]!.lines.slice(0, 4)).toEqual(['-line 0', ' line 1', '+line 0', ' line 2']);
    const [, beyond] = swapped(2000, 250); // D = 500
    const outside = diffFileContents(before, beyond);
    // The first swap is at lines 1–2, the last at 1,999–2,000: everything is replaced.
    expect([outside.algorithm, outside.additions, outside.deletions]).toEqual(['prefix-suffix', 2000, 2000]);
    expect(outside.hunks).toHaveLength(1);
    expect(outside.hunks[0]).toMatchObject({ oldStart: 1, oldLines: 2000, newStart: 1, newLines: 2000 });
    expect(outside.hunks[0]!.lines.slice(0, 2)).toEqual(['-line 0', '-line 1']);
    expect(outside.hunks[0]!.lines[2000]).toBe('+line 1');
    expect(applyPatch(before, asPatch(outside.hunks))).toBe(beyond);
  });

  it('a 1 MiB rewrite where every line changes is a correct artifact (lines found on one side only never reach Myers)', () => {
    const before = numbered(24_000, (index) => `const value${index} = compute(${index}); // original`);
    const after = numbered(24_000, (index) => `const VALUE${index} = compute(${index}); // rewritten`);
    expect(after.length).toBeGreaterThan(1024 * 1024);
    const artifact = change(before, after);
    expect([artifact.change.additions, artifact.change.deletions, artifact.change.hunks.length]).toEqual([24_000, 24_000, 1]);
    expect(applyHunks(before, artifact)).toBe(after);
  });

  it('a 1 MiB reordering of every line falls back to one prefix/suffix hunk', () => {
    const lines = Array.from({ length: 24_000 }, (_, index) => `const value${index} = compute(${index}); // same line\n`);
    const reordered = lines.map((_, index) => lines[(index * 7919) % lines.length]!);
    const before = lines.join('');
    const after = reordered.join('');
    const diff = diffFileContents(before, after);
    expect(diff.algorithm).toBe('prefix-suffix');
    expect(diff.hunks).toHaveLength(1);
    expect(applyPatch(before, asPatch(diff.hunks))).toBe(after);
  });
});
