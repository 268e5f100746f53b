import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

/**
 * Secrets at rest (architecture §3.8), through the real CLI and the real
 * bubblewrap sandbox: a credential read once under an approved grant is stored in the session
 * database; a later session without any grant must not read it back — not with `grep -a` on the
 * database and its WAL, not with the file tools — and not another session's spill files either.
 * A session still reads its own spill folder, and `conversation_history` still answers.
 */
let sandbox: CliSandbox;
const secret = 'hunter2-at-rest-7f3a';

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.home, '.pgpass'), `localhost:5432:*:app:${secret}\n`);
});

afterEach(async () => {
  await sandbox.remove();
});

function call(tool: string, input: unknown, ...flags: string[]) {
  return runOpenwork(['call', tool, JSON.stringify(input), '--workspace', sandbox.workspace, ...flags], { environment: sandbox.environment, cwd: sandbox.workspace });
}

describe('secrets at rest (architecture §3.8, issue 24)', () => {
  it('a credential read under a one-call grant is stored, and no later session reads it back from the database', async () => {
    const pgpass = join(sandbox.home, '.pgpass');
    const granted = await call('bash', { command: `cat ${pgpass}`, sandboxPermissions: { paths: [{ path: pgpass, access: 'read', scope: 'exact' }] }, justification: 'read the db password' }, '--approve');
    expect(granted.stdout).toContain(secret);
    // The store really holds it (else this test would prove nothing).
    const files = (await readdir(sandbox.openworkHome)).filter((name) => name.startsWith('sessions.sqlite'));
    const stored = (await Promise.all(files.map((name) => readFile(join(sandbox.openworkHome, name), 'latin1')))).join('');
    expect(stored).toContain(secret);

    const database = join(sandbox.openworkHome, 'sessions.sqlite');
    const bash = await call('bash', { command: `grep -ra ${secret} ${sandbox.openworkHome}; cat ${database}* | grep -ac ${secret}; cp ${database} ${sandbox.workspace}/copy` });
    expect(bash.stdout).not.toContain(`:${secret}`);
    expect(bash.stdout).toMatch(/Permission denied|No such file/);
    const read = await call('read', { path: database });
    expect(read.status).toBe(1);
    expect(read.stdout).toContain('cannot be read by tools');
    const grep = await call('grep', { pattern: secret, path: sandbox.openworkHome });
    expect(grep.stdout).not.toContain(`:${secret}`);
    // A grant cannot reopen it either (tier 1).
    const asked = await call('bash', { command: `grep -ac ${secret} ${database}`, sandboxPermissions: { paths: [{ path: database, access: 'read', scope: 'exact' }] }, justification: 'x' }, '--approve');
    expect(asked.stdout).not.toMatch(/^[1-9]/m);
  }, 180_000);

  it("other sessions' spill folders are unreadable; a session reads its own spill, and conversation_history answers", async () => {
    const otherSpill = join(sandbox.openworkHome, 'spill', 'someone-else');
    await mkdir(otherSpill, { recursive: true });
    await writeFile(join(otherSpill, 'call-1.txt'), `spilled ${secret}\n`);
    const big = 'seq 1 40000; echo own-spill-end';
    const lines = [
      { tool: 'bash', input: { command: big } },
      { tool: 'bash', input: { command: `cat ${otherSpill}/call-1.txt; ls ${join(sandbox.openworkHome, 'spill')}` } },
      { tool: 'read', input: { path: join(otherSpill, 'call-1.txt') } },
      { tool: 'conversation_history', input: {} },
    ];
    const run = await runOpenwork(['session', '--workspace', sandbox.workspace], {
      environment: sandbox.environment,
      cwd: sandbox.workspace,
      stdin: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    });
    const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: string; content: Array<{ text?: string }> });
    const text = (index: number) => (results[index]?.content ?? []).map((part) => part.text ?? '').join('');
    expect(results).toHaveLength(4);
    expect(text(1)).not.toContain(secret);
    expect(text(1)).toMatch(/Permission denied/);
    expect(results[2]?.status).toBe('denied');
    expect(text(2)).not.toContain(secret);
    expect(results[3]?.status).toBe('succeeded');
    // The first call spilled: its own spill file is named in the result (as ~/.openwork/spill/<session>/…).
    const spillName = /\.openwork\/spill\/([^/\s"']+)\/([^\s"']+\.txt)/.exec(text(0));
    expect(spillName, text(0)).not.toBeNull();
    const [, sessionId = '', fileName = ''] = spillName ?? [];
    const spillFile = join(sandbox.openworkHome, 'spill', sessionId, fileName);
    expect(await readFile(spillFile, 'utf8')).toContain('own-spill-end');
    // The same session, continued: read and bash read its own spill.
    const again = [
      { tool: 'read', input: { path: spillFile, offset: 40000 } },
      { tool: 'bash', input: { command: `tail -n 1 ${spillFile}` } },
    ];
    const own = await runOpenwork(['session', '--session', sessionId], {
      environment: sandbox.environment,
      cwd: sandbox.workspace,
      stdin: `${again.map((line) => JSON.stringify(line)).join('\n')}\n`,
    });
    const ownResults = own.stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: string; content: Array<{ text?: string }> });
    expect(ownResults.map((result) => result.status), own.stdout).toEqual(['succeeded', 'succeeded']);
    expect(JSON.stringify(ownResults)).toContain('own-spill-end');
    // A new session cannot read it.
    const stranger = await call('bash', { command: `tail -n 1 ${spillFile}` });
    expect(stranger.stdout).not.toContain('own-spill-end');
    expect(stranger.stdout).toContain('Permission denied');
  }, 180_000);
});
