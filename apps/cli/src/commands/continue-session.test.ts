import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

// Continued sessions: `openwork call edit` always failed ("Read … before editing it"), since every call was a
// new session. `--session ID` continues a stored session with what it has read.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\n');
});
afterEach(async () => sandbox.remove());

const run = (argv: string[], stdin?: string) => runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace, ...(stdin === undefined ? {} : { stdin }) });
const sessionOf = (stderr: string) => /^session (\S+) \(continue it with --session \1\)$/m.exec(stderr)?.[1] ?? '';

describe('openwork call --session ID and openwork session --session ID', () => {
  it('read in one call, edit in the next: the id is printed for the next call and the edit runs', async () => {
    const read = await run(['call', 'read', '{"path":"notes.txt"}']);
    expect(read.status).toBe(0);
    const id = sessionOf(read.stderr);
    expect(id).not.toBe('');
    const fresh = await run(['call', 'edit', '{"filePath":"notes.txt","oldString":"beta","newString":"BETA"}']);
    expect(fresh.status).toBe(1);
    expect(fresh.stdout).toContain('Read notes.txt before editing it.');
    const edit = await run(['call', 'edit', '{"filePath":"notes.txt","oldString":"beta","newString":"BETA"}', '--session', id]);
    expect(edit).toMatchObject({ status: 0, stdout: 'Edited notes.txt:2 (+1 -1)\n' });
    expect(sessionOf(edit.stderr)).toBe(id);
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\n');
    // The edit's own hash is recorded too: a second edit needs no new read.
    const again = await run(['call', 'edit', '{"filePath":"notes.txt","oldString":"alpha","newString":"ALPHA"}', '--session', id]);
    expect(again.status).toBe(0);
    const changes = await run(['changes', '--session', id]);
    expect(changes.stdout.match(/notes\.txt/g)).toHaveLength(2);
  });

  it('a file changed by someone else since the read is refused in the continued session', async () => {
    const id = sessionOf((await run(['call', 'read', '{"path":"notes.txt"}'])).stderr);
    await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\nchanged by the user\n');
    const edit = await run(['call', 'edit', '{"filePath":"notes.txt","oldString":"beta","newString":"BETA"}', '--session', id]);
    expect(edit.status).toBe(1);
    expect(edit.stdout).toContain('notes.txt changed since you last read it');
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\nchanged by the user\n');
  });

  it('openwork session --session continues the same stored session as call does', async () => {
    const id = sessionOf((await run(['call', 'read', '{"path":"notes.txt"}'])).stderr);
    const lines = `${JSON.stringify({ tool: 'edit', input: { filePath: 'notes.txt', oldString: 'alpha', newString: 'A' } })}\n`;
    const session = await run(['session', '--session', id], lines);
    expect(session.status).toBe(0);
    expect(JSON.parse(session.stdout.trim())).toMatchObject({ status: 'succeeded' });
    expect(session.stderr).toContain(`openwork session ${id}`);
  });

  it('an unknown id, or --workspace beside --session, is a usage error that runs nothing', async () => {
    const unknown = await run(['call', 'read', '{"path":"notes.txt"}', '--session', 'no-such-session']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no stored session "no-such-session"');
    expect(unknown.stdout).toBe('');
    const id = sessionOf((await run(['call', 'read', '{"path":"notes.txt"}'])).stderr);
    const both = await run(['call', 'read', '{"path":"notes.txt"}', '--session', id, '--workspace', sandbox.root]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--workspace cannot change a continued session');
  });
});
