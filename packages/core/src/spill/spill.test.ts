import { access, mkdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { InMemorySessionStore } from '@openwork/session-store';
import { SPILL_RETENTION_MS } from './spill-retention.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

const DAY = 24 * 60 * 60 * 1000;

/** Sets the modification time of `path` to `days` days ago. */
async function age(path: string, days: number): Promise<void> {
  const when = new Date(Date.now() - days * DAY);
  await utimes(path, when, when);
}

describe('spill directories (§8.2)', () => {
  it('acc_26_spilled_output_is_readable_and_never_writable', async () => {
    const machine = await fixture();
    const session = await machine.session({ id: 'session-26' });
    if (!session.toolIds.includes('bash')) return expect.fail('bash is not in the default toolset yet (it lands with builtins bash)');
    // Output far over 16 KiB: the model sees head and tail, the whole goes to the session's spill directory.
    const output = await session.callTool('bash', { command: 'seq 1 30000' }, { callId: 'call_seq' });
    const text = ToolResult.text(output.result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32_000);
    const shown = '~/.openwork/spill/session-26/call_seq.txt';
    expect(text).toContain(`bytes omitted. Full output saved at ${shown} — use read with offset/limit, or grep, to look at it.)`);
    const spillFile = join(session.spillDirectory, 'call_seq.txt');
    expect(spillFile).toBe(join(machine.openworkHome, 'spill', 'session-26', 'call_seq.txt'));
    const saved = await readFile(spillFile, 'utf8');
    expect(saved).toBe(`${Array.from({ length: 30000 }, (_, index) => index + 1).join('\n')}\n`);

    // Readable: the model reads it with read, at the path the result gave.
    const read = await session.callTool('read', { path: shown, offset: 20000, limit: 2 });
    expect(ToolResult.text(read.result)).toBe('20000\t20000\n20001\t20001\n\n[showing lines 20000-20001 of 30000. Continue with offset=20002]');

    // Never writable: not by write or edit (tier 1, denied before running), not with a grant, not by bash.
    const approver = () => true;
    for (const [tool, input] of [
      ['write', { path: shown, content: 'forged' }],
      ['edit', { filePath: spillFile, oldString: '20000', newString: 'forged' }],
      ['write', { path: join(session.spillDirectory, 'new.txt'), content: 'x' }],
      ['write', { path: 'a.txt', content: 'x', sandboxPermissions: { paths: [{ path: spillFile, access: 'write', scope: 'exact' }] }, justification: 'j' }],
      ['bash', { command: `echo forged >> ${spillFile}`, sandboxPermissions: { paths: [{ path: session.spillDirectory, access: 'write', scope: 'subtree' }] }, justification: 'j' }],
    ] as const) {
      const attempt = await session.callTool(tool, input, { approver });
      expect(attempt.result.status).toBe('denied');
      expect(ToolResult.text(attempt.result)).toMatch(/is protected and cannot be changed by tools\.$/);
    }
    const shell = await session.callTool('bash', { command: `echo forged >> ${spillFile}; echo forged > ${join(session.spillDirectory, 'new.txt')}; rm -f ${spillFile}` });
    expect(shell.result.sandboxDenied).toBe(true);
    expect(await readFile(spillFile, 'utf8')).toBe(saved);
    expect(await exists(join(session.spillDirectory, 'new.txt'))).toBe(false);
  });

  it('one spill directory per session, kept when the toolset is rebuilt, deleted with the session', async () => {
    const machine = await fixture();
    const session = await machine.session({ id: 'with/odd id' });
    const directory = session.spillDirectory;
    expect(directory).toBe(join(machine.openworkHome, 'spill', 'with_odd_id'));
    await session.update({ role: 'explorer' });
    expect(session.spillDirectory).toBe(directory);
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'call_1.txt'), 'saved');
    const other = await machine.session({ id: 'other' });
    await mkdir(other.spillDirectory, { recursive: true });

    expect(await machine.runtime.deleteSession('with/odd id')).toBe(true);
    expect(await exists(directory)).toBe(false);
    expect(await exists(other.spillDirectory)).toBe(true);
    expect(await machine.store.getSession('with/odd id')).toBeUndefined();
    await expect(session.messages()).rejects.toMatchObject({ code: 'session_not_found' });
  });

  it('at start, a spill directory untouched for 8 days is removed and one touched 6 days ago is kept', async () => {
    const machine = await fixture();
    const spill = join(machine.openworkHome, 'spill');
    const outsideTarget = join(machine.outside, 'linked');
    const layout = {
      old: { folder: 8, files: [8, 9] },
      recent: { folder: 6, files: [6] },
      // The folder's own time is old, but a file in it was written yesterday: touched.
      refreshed: { folder: 8, files: [1] },
      empty: { folder: 8, files: [] },
    } as const;
    for (const [name, ages] of Object.entries(layout)) {
      const folder = join(spill, name);
      await mkdir(folder, { recursive: true });
      for (const [index, days] of ages.files.entries()) {
        await writeFile(join(folder, `call_${index}.txt`), 'output');
        await age(join(folder, `call_${index}.txt`), days);
      }
      await age(folder, ages.folder);
    }
    // A link in spill/ is not a session folder: neither it nor what it points to is touched.
    await mkdir(outsideTarget);
    await writeFile(join(outsideTarget, 'keep.txt'), 'keep');
    await age(outsideTarget, 30);
    await symlink(outsideTarget, join(spill, 'link'));

    const restarted = await createRuntime({ home: machine.openworkHome, store: new InMemorySessionStore(), homeDirectory: machine.home });
    try {
      expect(restarted.removedSpillDirectories).toEqual([join(spill, 'empty'), join(spill, 'old')]);
      expect(await exists(join(spill, 'old'))).toBe(false);
      expect(await exists(join(spill, 'empty'))).toBe(false);
      expect(await exists(join(spill, 'recent', 'call_0.txt'))).toBe(true);
      expect(await exists(join(spill, 'refreshed', 'call_0.txt'))).toBe(true);
      expect((await stat(join(spill, 'link'))).isDirectory()).toBe(true);
      expect(await readFile(join(outsideTarget, 'keep.txt'), 'utf8')).toBe('keep');
    } finally {
      await restarted.close();
    }
    expect(SPILL_RETENTION_MS).toBe(7 * DAY);
  });
});
