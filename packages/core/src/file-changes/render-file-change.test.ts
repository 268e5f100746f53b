import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createFileChange } from '@openwork/builtins';
import { afterEach, describe, expect, it } from 'vitest';
import { renderFileChange } from '../index.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const directory of cleanup.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

function artifactOf(before: string | null, after: string): unknown {
  const beforeBytes = before === null ? null : Buffer.from(before);
  const afterBytes = Buffer.from(after);
  return createFileChange({
    changeId: 'change-1',
    path: '/ws/notes.txt',
    realPath: '/ws/notes.txt',
    displayPath: 'notes.txt',
    before: beforeBytes,
    after: afterBytes,
    beforeHash: beforeBytes === null ? null : sha256(beforeBytes),
    afterHash: sha256(afterBytes),
  });
}

/** Applies the rendered diff with GNU patch and with git apply to a copy of `before`; returns both results. */
function applyBoth(before: string | null, diff: string): { patch: string; git: string } {
  const results: Record<string, string> = {};
  for (const tool of ['patch', 'git'] as const) {
    const directory = mkdtempSync(join(tmpdir(), `ow-render-${tool}-`));
    cleanup.push(directory);
    if (before !== null) writeFileSync(join(directory, 'notes.txt'), before);
    writeFileSync(join(directory, 'change.diff'), diff);
    const run =
      tool === 'patch'
        ? spawnSync('patch', ['-p1', '--batch', '--forward', '-i', 'change.diff'], { cwd: directory, encoding: 'utf8' })
        : spawnSync('git', ['apply', '--unsafe-paths', 'change.diff'], { cwd: directory, encoding: 'utf8' });
    expect({ tool, status: run.status, stderr: run.stderr }).toEqual({ tool, status: 0, stderr: '' });
    results[tool] = readFileSync(join(directory, 'notes.txt'), 'utf8');
  }
  return { patch: results['patch'] ?? '', git: results['git'] ?? '' };
}

describe('renderFileChange: a unified diff that GNU patch and git apply both accept', () => {
  it('a created file has the standard header @@ -0,0 +1,N @@', () => {
    const diff = renderFileChange(artifactOf(null, 'one\ntwo\nthree\n'));
    expect(diff).toBe('--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,3 @@\n+one\n+two\n+three\n');
    expect(applyBoth(null, diff)).toEqual({ patch: 'one\ntwo\nthree\n', git: 'one\ntwo\nthree\n' });
  });

  it('lines added after the end and lines removed name the line before the empty side', () => {
    const before = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
    const appended = `${before}line 11\n`;
    const removed = before.replace('line 5\nline 6\n', '');
    for (const after of [appended, removed, '']) {
      const diff = renderFileChange(artifactOf(before, after));
      expect(applyBoth(before, diff)).toEqual({ patch: after, git: after });
    }
    expect(renderFileChange(artifactOf(before, ''))).toContain('@@ -1,10 +0,0 @@');
  });

  it('for a person, revealHiddenCharacters shows escapes, \\r and bidi overrides in the path and lines, tabs kept (§3.9)', () => {
    const artifact = createFileChange({
      changeId: 'change-2',
      path: '/ws/a\u202eb',
      realPath: '/ws/a\u202eb',
      displayPath: 'a\u202eb\x1b[2K',
      before: null,
      after: Buffer.from('x\x1b[1A\ty\r\n'),
      beforeHash: null,
      afterHash: sha256(Buffer.from('x\x1b[1A\ty\r\n')),
    });
    expect(renderFileChange(artifact, { revealHiddenCharacters: true })).toBe('--- /dev/null\n+++ b/a\\u202eb\\x1b[2K\n@@ -0,0 +1,1 @@\n+x\\x1b[1A\ty\\r\n');
    // The default stays a patch: byte for byte what changed.
    expect(renderFileChange(artifact)).toBe('--- /dev/null\n+++ b/a\u202eb\x1b[2K\n@@ -0,0 +1,1 @@\n+x\x1b[1A\ty\r\n');
  });
});
