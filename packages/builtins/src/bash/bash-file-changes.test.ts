import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree } from '@openwork/tooling/tree-snapshot';
import { ToolResult, type ToolArtifact } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FILE_CHANGE_SUMMARY_ARTIFACT_KIND,
  reapplyFileChanges,
  undoFileChanges,
  type FileChange,
  type FileChangeEngineOptions,
  type FileChangeOutcome,
  type FileChangeSummary,
} from '../index.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';
import { MAX_BASH_FILE_CHANGES } from './bash-file-changes.js';

// Spec §8.4 and architecture §3.10: what a foreground bash call changed on the host (its staged
// writes, applied when it ended) comes back as file changes that undo and reapply like edits.

const fixtures: BashFixture[] = [];
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

async function bashFixture(): Promise<BashFixture> {
  const fixture = await createBashFixture();
  fixtures.push(fixture);
  return fixture;
}

/** The tree without what no undo can give back (inode numbers and change times): kind, mode, size, content or link target. */
async function contentOf(root: string): Promise<string[]> {
  return (await snapshotTree(root)).map((line) => line.replace(/ ino=\d+/, '').replace(/ ctime=\d+/, ''));
}

/** One bash call; its artifacts as a session store gives them back (JSON). */
async function bash(fixture: BashFixture, command: string, callId: string): Promise<{ artifacts: unknown[]; text: string }> {
  const result = await fixture.call('bash', { command }, { callId });
  const text = ToolResult.text(result);
  expect(result.status, text).toBe('succeeded');
  return { artifacts: JSON.parse(JSON.stringify(result.artifacts as ToolArtifact[])) as unknown[], text };
}

function changesOf(artifacts: readonly unknown[]): FileChange[] {
  return artifacts.flatMap((artifact) => ((artifact as { kind: string }).kind === 'file_change' ? [(artifact as { change: FileChange }).change] : []));
}

function summaryOf(artifacts: readonly unknown[]): FileChangeSummary | undefined {
  const found = artifacts.find((artifact) => (artifact as { kind: string }).kind === FILE_CHANGE_SUMMARY_ARTIFACT_KIND);
  return (found as { summary: FileChangeSummary } | undefined)?.summary;
}

function engine(fixture: BashFixture): FileChangeEngineOptions {
  return { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() };
}

function succeeded(outcome: FileChangeOutcome) {
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  return outcome;
}

/** A workspace with text files, an executable, a link and a folder to remove. */
async function seed(workspace: string): Promise<void> {
  await writeFile(join(workspace, 'keep.txt'), 'kept\n');
  await writeFile(join(workspace, 'notes.txt'), 'one\ntwo\n');
  await writeFile(join(workspace, 'run.sh'), '#!/bin/sh\necho run\n');
  await chmod(join(workspace, 'run.sh'), 0o750);
  await mkdir(join(workspace, 'old', 'inner'), { recursive: true });
  await writeFile(join(workspace, 'old', 'inner', 'a.txt'), 'a\n');
  await symlink('keep.txt', join(workspace, 'old-link'));
}

const textCommand = [
  'echo three >> notes.txt',
  'rm run.sh',
  'printf "fresh\\n" > new.txt',
  'mkdir -p sub/deep && echo deep > sub/deep/f.txt',
  'ln -s new.txt new-link',
  'rm old-link',
  'rm -r old',
].join(' && ');

describe('bash changes are file changes (spec §8.4, architecture §3.10)', () => {
  it('a call that creates, modifies and deletes text files, folders and links records each as a file_change, never in the model text', async () => {
    const fixture = await bashFixture();
    await seed(fixture.workspace);
    const { artifacts, text } = await bash(fixture, textCommand, 'call_text');
    expect(text).not.toContain('file_change');
    const changes = changesOf(artifacts);
    const shown = changes.map((change) => `${change.kind} ${change.entry ?? 'file'} ${change.displayPath}`).sort();
    expect(shown).toEqual(
      [
        'modified file notes.txt',
        'deleted file run.sh',
        'created file new.txt',
        'created directory sub',
        'created directory sub/deep',
        'created file sub/deep/f.txt',
        'created symlink new-link',
        'deleted symlink old-link',
        'deleted file old/inner/a.txt',
        'deleted directory old/inner',
        'deleted directory old',
      ].sort(),
    );
    expect(new Set(changes.map((change) => change.changeId)).size).toBe(changes.length);
    for (const change of changes) {
      expect(change.changeId.startsWith('call_text.')).toBe(true);
      expect(change.callId).toBe('call_text');
      expect(change.unrecorded).toBeUndefined();
    }
    const notes = changes.find((change) => change.displayPath === 'notes.txt');
    expect(notes).toMatchObject({ beforeContent: 'one\ntwo\n', afterContent: 'one\ntwo\nthree\n', additions: 1, deletions: 0, realPath: join(fixture.workspace, 'notes.txt') });
    const removed = changes.find((change) => change.displayPath === 'run.sh');
    expect(removed).toMatchObject({ beforeContent: '#!/bin/sh\necho run\n', afterContent: null, afterHash: null, beforeMode: 0o750, deletions: 2, additions: 0 });
    expect(changes.find((change) => change.displayPath === 'new-link')).toMatchObject({ afterTarget: 'new.txt' });
    expect(changes.find((change) => change.displayPath === 'old-link')).toMatchObject({ beforeTarget: 'keep.txt' });
    expect(summaryOf(artifacts)).toEqual({ callId: 'call_text', counts: { created: 5, modified: 1, deleted: 5 }, recorded: 11, undoable: 11, complete: true, refused: 0 });
  });

  it('undo by the call id restores the tree exactly; reapply makes it again; a file changed since is a conflict and nothing is overwritten', async () => {
    const fixture = await bashFixture();
    await seed(fixture.workspace);
    const before = await contentOf(fixture.workspace);
    const { artifacts } = await bash(fixture, textCommand, 'call_text');
    const after = await contentOf(fixture.workspace);
    expect(after).not.toEqual(before);

    const undo = succeeded(await undoFileChanges({ artifacts, changeIds: ['call_text'] }, engine(fixture)));
    expect(undo.changeIds).toHaveLength(11);
    expect(await contentOf(fixture.workspace)).toEqual(before);

    const undone = JSON.parse(JSON.stringify(undo.artifacts)) as unknown[];
    succeeded(await reapplyFileChanges({ artifacts: undone, changeIds: ['call_text'] }, engine(fixture)));
    expect(await contentOf(fixture.workspace)).toEqual(after);

    // Someone edits a file the call created: undoing the call would lose that edit.
    await writeFile(join(fixture.workspace, 'new.txt'), 'edited by a person\n');
    const edited = await snapshotTree(fixture.workspace);
    const conflict = await undoFileChanges({ artifacts, changeIds: ['call_text'] }, engine(fixture));
    expect(conflict.ok).toBe(false);
    expect(!conflict.ok && conflict.code).toBe('conflict');
    expect(!conflict.ok && conflict.message).toContain('new.txt');
    expect(await snapshotTree(fixture.workspace)).toEqual(edited);
    expect(await readFile(join(fixture.workspace, 'new.txt'), 'utf8')).toBe('edited by a person\n');
  });

  it('binary and larger files are recorded with hash, size and mode, and undo refuses them with the reason, touching nothing', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'image.bin'), Buffer.from([0xff, 0x00, 0xfe]));
    const { artifacts } = await bash(fixture, 'printf "\\x00\\x01\\x02" > blob.bin && head -c 1100000 /dev/zero | tr "\\0" x > big.txt && printf "\\x80" >> image.bin && echo hi > small.txt', 'call_bin');
    const changes = changesOf(artifacts);
    const blob = changes.find((change) => change.displayPath === 'blob.bin');
    expect(blob).toMatchObject({ kind: 'created', unrecorded: 'binary', size: 3, beforeHash: null, afterContent: null });
    expect(blob?.afterHash).toMatch(/^[0-9a-f]{64}$/);
    const big = changes.find((change) => change.displayPath === 'big.txt');
    expect(big).toMatchObject({ kind: 'created', unrecorded: 'too_large', size: 1100000, afterContent: null });
    expect(big?.afterHash).toMatch(/^[0-9a-f]{64}$/);
    expect(changes.find((change) => change.displayPath === 'image.bin')).toMatchObject({ kind: 'modified', unrecorded: 'binary', size: 4 });
    expect(summaryOf(artifacts)).toMatchObject({ recorded: 4, undoable: 1, complete: true });

    const snapshot = await snapshotTree(fixture.workspace);
    const refused = await undoFileChanges({ artifacts, changeIds: ['call_bin'] }, engine(fixture));
    expect(refused.ok).toBe(false);
    if (refused.ok || refused.code !== 'not_recorded') throw new Error(`expected not_recorded, got ${JSON.stringify(refused)}`);
    expect(refused.changes.map((change) => `${change.displayPath} ${change.unrecorded}`).sort()).toEqual(['big.txt too_large', 'blob.bin binary', 'image.bin binary']);
    expect(refused.message).toContain('not UTF-8 text');
    expect(await snapshotTree(fixture.workspace)).toEqual(snapshot);

    // The text change of the same call undoes by its own id.
    const small = changes.find((change) => change.displayPath === 'small.txt');
    succeeded(await undoFileChanges({ artifacts, changeIds: [small?.changeId ?? ''] }, engine(fixture)));
    expect((await contentOf(fixture.workspace)).some((line) => line.startsWith('small.txt'))).toBe(false);
  });

  it(`a call that creates 5,000 files records the first ${MAX_BASH_FILE_CHANGES} and a summary with the counts of all`, async () => {
    const fixture = await bashFixture();
    const { artifacts } = await bash(fixture, 'mkdir many && cd many && for i in $(seq 1 5000); do echo $i > f$i.txt; done', 'call_many');
    expect(changesOf(artifacts)).toHaveLength(MAX_BASH_FILE_CHANGES);
    expect(summaryOf(artifacts)).toEqual({ callId: 'call_many', counts: { created: 5001, modified: 0, deleted: 0 }, recorded: MAX_BASH_FILE_CHANGES, undoable: MAX_BASH_FILE_CHANGES, complete: false, refused: 0 });
  });

  it('a call that changes nothing has no file-change artifacts', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'a.txt'), 'a\n');
    const result = await fixture.call('bash', { command: 'cat a.txt > /dev/null && : > /dev/null' });
    expect(result.artifacts).toEqual([]);
  });

  it('a file the user saves while the call runs is a conflict: the host keeps the save, the result and the summary name it and where the command\'s version is', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'notes.txt'), 'first\n');
    const go = join(fixture.outside, 'go');
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const command = `echo agent >> notes.txt; echo ready; while [ ! -e ${go} ]; do sleep 0.05; done`;
    const pending = fixture.call('bash', { command }, { callId: 'call_conflict', progress: (event) => (JSON.stringify(event).includes('ready') ? ready() : undefined) });
    await isReady;
    await writeFile(join(fixture.workspace, 'notes.txt'), 'first\nuser\n');
    await writeFile(go, '');
    const result = await pending;
    const text = ToolResult.text(result);
    expect(result.status, text).toBe('succeeded');
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('first\nuser\n');
    expect(text).toMatch(/conflict: 1 entry changed on the host while the command ran/);
    const artifacts = JSON.parse(JSON.stringify(result.artifacts)) as unknown[];
    expect(changesOf(artifacts)).toEqual([]);
    const conflicts = summaryOf(artifacts)?.conflicts ?? [];
    expect(conflicts.map(({ path, operation, reason }) => ({ path, operation, reason }))).toEqual([{ path: 'notes.txt', operation: 'modify', reason: 'the host changed this file during the call' }]);
    expect(await readFile(conflicts[0]?.keptAt as string, 'utf8')).toBe('first\nagent\n');
    expect(text).toContain(conflicts[0]?.keptAt as string);
  });
});
