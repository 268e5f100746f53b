import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { snapshotTree } from '@openwork/tooling/tree-snapshot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

// The commands end to end: the built executable, a temp HOME / OpenWork home / workspace, the real
// SQLite store in that home and the real bubblewrap sandbox.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\n');
});
afterEach(async () => sandbox.remove());

/** The tree without inode numbers and change times (no undo gives those back). */
async function contentOf(root: string): Promise<string[]> {
  return (await snapshotTree(root)).map((line) => line.replace(/ ino=\d+/, '').replace(/ ctime=\d+/, ''));
}

const run = (argv: string[], stdin?: string) => runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace, ...(stdin === undefined ? {} : { stdin }) });

describe('openwork session, changes, undo', () => {
  it('a file the user saves while a bash call runs: the call names the conflict, openwork changes prints it, the save stays', async () => {
    // The command cannot wait for a file the test makes (its temp folder is an overlay, which
    // caches that the name is missing): it gives the test 5 s after its write, which the test sees
    // arrive in the staging folder.
    const command = 'echo agent >> notes.txt; echo made > made.txt; sleep 5';
    const calling = run(['call', 'bash', JSON.stringify({ command }), '--json']);
    // The command has written once its copy of notes.txt is in its staging folder (the OpenWork
    // home's, else /var/tmp's, else /dev/shm's: docs/decisions/0085).
    const staged = (): boolean =>
      [join(sandbox.openworkHome, 'staging'), `/var/tmp/openwork-${userInfo().uid}/staging`, `/dev/shm/openwork-${userInfo().uid}/staging`].some((base) => {
        try {
          // The workspace is an overlay of its own, or a folder of the temp root's overlay.
          const below = ['', relative(realpathSync(tmpdir()), sandbox.workspace)];
          return readdirSync(base).some((call) => readdirSync(join(base, call)).some((root) => below.some((folder) => existsSync(join(base, call, root, 'upper', folder, 'notes.txt')))));
        } catch {
          return false;
        }
      });
    for (let attempt = 0; attempt < 600 && !staged(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(staged()).toBe(true);
    await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\nuser\n');
    const called = await calling;
    expect(called.status, called.stderr).toBe(0);
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\nuser\n');
    const result = JSON.parse(called.stdout) as { content: { text?: string }[]; artifacts: { kind: string; summary?: { conflicts?: { path: string; keptAt?: string }[] } }[] };
    expect(JSON.stringify(result.content)).toContain('conflict: 1 entry changed on the host while the command ran');
    const kept = result.artifacts.find((artifact) => artifact.kind === 'file_change_summary')?.summary?.conflicts?.[0]?.keptAt ?? '';
    expect(await readFile(kept, 'utf8')).toBe('alpha\nbeta\nagent\n');
    expect(await readFile(join(sandbox.workspace, 'made.txt'), 'utf8')).toBe('made\n');
    const table = await run(['changes']);
    expect(table.stdout).toMatch(/bash call \S+: 1 entry changed on the host while it ran were not applied \(the host kept its version\):\n {2}modify notes\.txt: the host changed this file during the call; the command's version is at /);
  });

  it('read → edit in one session, then openwork undo on the same store restores the file', async () => {
    const lines = [
      JSON.stringify({ tool: 'read', input: { path: 'notes.txt' } }),
      '{not json',
      JSON.stringify({ tool: 'edit', input: { filePath: 'notes.txt', oldString: 'beta', newString: 'BETA' } }),
    ].join('\n');
    const session = await run(['session', '--workspace', sandbox.workspace], `${lines}\n`);
    const results = session.stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: string; error: { code: string } | null; artifacts: { change: { changeId: string } }[] });
    expect(results.map((result) => result.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(results[1]?.error?.code).toBe('invalid_arguments');
    expect(session.status).toBe(1);
    const sessionId = /^openwork session (\S+)$/m.exec(session.stderr)?.[1];
    expect(sessionId).toBeDefined();
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\n');

    const changeId = results[2]?.artifacts[0]?.change.changeId ?? '';
    const table = await run(['changes', '--session', sessionId ?? '']);
    expect(table.stdout).toMatch(new RegExp(`${changeId.slice(0, 13)}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+edit\\s+${(sessionId ?? '').slice(0, 8)}\\s+notes.txt\\s+\\+1\\s+-1\\s+applied`));
    const diff = await run(['changes', '--diff', changeId]);
    expect(diff.stdout).toContain('-beta\n+BETA');

    const undo = await run(['undo', changeId]);
    expect(undo).toMatchObject({ status: 0, stdout: `undone ${changeId}\n` });
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n');
    expect((await run(['changes'])).stdout).toMatch(new RegExp(`${changeId.slice(0, 13)}.*undone`));

    const reapply = await run(['reapply', changeId]);
    expect(reapply.status).toBe(0);
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\n');
  });

  it('undo never overwrites a file changed since: conflict, exit 1, the file keeps its bytes', async () => {
    const lines = [
      JSON.stringify({ tool: 'read', input: { path: 'notes.txt' } }),
      JSON.stringify({ tool: 'edit', input: { filePath: 'notes.txt', oldString: 'beta', newString: 'BETA' } }),
    ].join('\n');
    const session = await run(['session'], `${lines}\n`);
    const changeId = (JSON.parse(session.stdout.trim().split('\n')[1] ?? '') as { artifacts: { change: { changeId: string } }[] }).artifacts[0]?.change.changeId ?? '';
    await writeFile(join(sandbox.workspace, 'notes.txt'), 'changed by the user\n');
    const undo = await run(['undo', changeId]);
    expect(undo.status).toBe(1);
    expect(undo.stderr).toContain('conflict');
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('changed by the user\n');
  });

  it('changes, changes --diff and undo show model-written paths and lines with hidden characters revealed (§3.9)', async () => {
    // A name and content that would redraw the terminal (erase the line, move up) and reorder what is read (U+202E).
    const name = 'evil\u202eptxt.sh\x1b[2K\x1b[1A.md';
    const lines = [JSON.stringify({ tool: 'write', input: { path: name, content: 'ok\x1b[1A\x1b[2K\tindented\r\n' } })].join('\n');
    const session = await run(['session'], `${lines}\n`);
    const result = JSON.parse(session.stdout.trim()) as { status: string; artifacts: { change: { changeId: string } }[] };
    expect(result.status).toBe('succeeded');
    const changeId = result.artifacts[0]?.change.changeId ?? '';
    const shownName = 'evil\\u202eptxt.sh\\x1b[2K\\x1b[1A.md';
    const table = await run(['changes']);
    expect(table.stdout).toContain(shownName);
    expect(table.stdout).not.toMatch(/[\x1b\u202e]/);
    const diff = await run(['changes', '--diff', changeId]);
    expect(diff.stdout).toContain(`+++ b/${shownName}`);
    expect(diff.stdout).toContain('+ok\\x1b[1A\\x1b[2K\tindented\\r\n'); // the tab is kept as a tab
    expect(diff.stdout).not.toMatch(/[\x1b\u202e\r]/);
    // undo's conflict text names the path too.
    await writeFile(join(sandbox.workspace, name), 'changed by the user\n');
    const undo = await run(['undo', changeId]);
    expect(undo.status).toBe(1);
    expect(undo.stderr).not.toMatch(/[\x1b\u202e]/);
  });

  it("a bash call's changes: openwork changes lists them, undo of the call restores the tree exactly, a conflict is refused, reapply works", async () => {
    await writeFile(join(sandbox.workspace, 'gone.txt'), 'bye\n');
    const before = await contentOf(sandbox.workspace);
    const command = 'echo gamma >> notes.txt && rm gone.txt && mkdir made && echo new > made/new.txt && ln -s made/new.txt link && printf "\\x00\\x01" > blob.bin && rm blob.bin';
    const called = await run(['call', 'bash', JSON.stringify({ command }), '--json']);
    expect(called.status, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { artifacts: { kind: string; change?: { changeId: string; callId: string } }[] };
    const callId = result.artifacts[0]?.change?.callId ?? '';
    expect(result.artifacts.filter((artifact) => artifact.kind === 'file_change')).toHaveLength(5);
    const after = await contentOf(sandbox.workspace);

    const table = await run(['changes']);
    expect(table.status).toBe(0);
    for (const row of ['notes.txt\\s+\\+1\\s+-0\\s+applied', 'gone.txt \\(deleted\\)\\s+\\+0\\s+-1\\s+applied', 'made/\\s+applied', 'made/new.txt\\s+\\+1\\s+-0\\s+applied', 'link -> made/new.txt\\s+applied']) {
      expect(table.stdout).toMatch(new RegExp(`${callId.slice(0, 13)}\\.\\d+\\s+\\S+ \\S+\\s+bash\\s+\\S+\\s+${row}`));
    }
    expect((await run(['changes', '--diff', callId.slice(0, 13)])).stdout).toContain('+++ /dev/null');

    const undo = await run(['undo', callId.slice(0, 13)]);
    expect(undo, undo.stderr).toMatchObject({ status: 0, stdout: `undone ${callId}\n` });
    expect(await contentOf(sandbox.workspace)).toEqual(before);

    expect((await run(['reapply', callId])).status).toBe(0);
    expect(await contentOf(sandbox.workspace)).toEqual(after);

    await writeFile(join(sandbox.workspace, 'notes.txt'), 'changed by the user\n');
    const refused = await run(['undo', callId]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('conflict');
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('changed by the user\n');
    expect(await readFile(join(sandbox.workspace, 'made', 'new.txt'), 'utf8')).toBe('new\n');
  });

  it('undo of an unknown change id changes nothing and exits 1', async () => {
    const undo = await run(['undo', 'call_nope']);
    expect(undo.status).toBe(1);
    expect(undo.stderr).toContain('no stored change "call_nope"');
  });
});

describe('openwork call', () => {
  it('prints the model-visible text and exits 0 for a succeeded call', async () => {
    expect(await run(['call', 'read', '{"path":"notes.txt"}'])).toMatchObject({ status: 0, stdout: '1\talpha\n2\tbeta\n' });
  });

  it('--json prints the whole ToolResult; a failed call exits 1', async () => {
    const result = await run(['call', 'read', '{"path":"missing.txt"}', '--json', '--workspace', sandbox.workspace]);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'failed', artifacts: [], sandboxDenied: false });
  });

  it('an escalation without a terminal is refused unless --approve; --approve never unlocks the OpenWork home', async () => {
    const target = join(sandbox.root, 'outside.txt');
    const input = JSON.stringify({ path: target, content: 'x\n', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: 'test' });
    const refused = await run(['call', 'write', input]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('no terminal');
    await expect(readFile(target)).rejects.toThrow();
    const approved = await run(['call', 'write', input, '--approve']);
    expect(approved.status).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('x\n');
    const protectedTarget = join(sandbox.openworkHome, 'config.json');
    const tier1 = JSON.stringify({ path: protectedTarget, content: '{}', sandboxPermissions: { paths: [{ path: protectedTarget, access: 'write', scope: 'exact' }] }, justification: 'test' });
    const denied = await run(['call', 'write', tier1, '--approve']);
    expect(denied.status).toBe(1);
    await expect(readFile(protectedTarget)).rejects.toThrow();
  });
});

describe('arguments, help, version, tools, doctor', () => {
  it('bad arguments give one line on stderr and exit 2', async () => {
    for (const argv of [['call', 'read', '{bad'], ['call', '--mode', 'loose'], ['frobnicate'], ['tools', '--agent', 'boss'], ['undo'], ['call', 'read', '{}', '--workspace', join(sandbox.root, 'nowhere')]]) {
      const result = await run(argv);
      expect(result.status, argv.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
  });

  it('every command has --help, and --version prints the package version', async () => {
    for (const command of ['tools', 'call', 'session', 'mcp', 'changes', 'undo', 'reapply', 'doctor']) {
      const help = await run([command, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: openwork ${command}`));
    }
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await run(['--version'])).toMatchObject({ status: 0, stdout: `${manifest.version}\n` });
  });

  it('tools lists the role\'s definitions; --json gives their schemas', async () => {
    const explorer = await run(['tools', '--agent', 'explorer', '--json']);
    const definitions = JSON.parse(explorer.stdout) as { id: string; riskHint: string; inputSchema: { type: string } }[];
    expect(definitions.map((definition) => definition.id)).not.toContain('edit');
    expect(definitions.find((definition) => definition.id === 'read')).toMatchObject({ riskHint: 'read_only', inputSchema: { type: 'object' } });
    expect((await run(['tools'])).stdout).toMatch(/^edit \(workspace_mutation\)$/m);
  });

  it('doctor reports bubblewrap available here, the OpenWork home and the SQLite store', async () => {
    const doctor = await run(['doctor', '--json']);
    expect(doctor.status).toBe(0);
    const report = JSON.parse(doctor.stdout) as Record<string, string>;
    expect(report['sandbox']).toBe('bubblewrap: available (self-check passed)');
    expect(report['writes']).toMatch(/^staged: .* judged by rule \(any depth\)/);
    // Where staged writes wait: the OpenWork home's disk, and with HOME as the workspace a private folder outside it.
    expect(report['staging']).toMatch(new RegExp(`^a workspace elsewhere: ${sandbox.openworkHome}/staging \\(disk\\); HOME as the workspace: /var/tmp/openwork-\\d+(\\.\\w{6})?/staging \\(disk\\)$`));
    expect(report['tty']).toBe('/usr/bin/script (util-linux): bash tty: true works');
    expect(report['home']).toBe(sandbox.openworkHome);
    expect(report['store']).toBe(`SQLite ${join(sandbox.openworkHome, 'sessions.sqlite')} (opened)`);
  });

  it('doctor says when the configured PostgreSQL cannot be reached', async () => {
    const doctor = await run(['doctor', '--json', '--database', 'postgresql://nobody@127.0.0.1:1/none']);
    expect(doctor.status).toBe(1);
    expect((JSON.parse(doctor.stdout) as Record<string, string>)['postgres']).toMatch(/^not reachable — /);
  });
});
