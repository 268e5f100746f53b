import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, OPENWORK_BIN, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

// Terminal output (docs/decisions/0067-cli-terminal-output.md): the real CLI on a real pseudo-terminal (util-linux `script`
// gives the command a pty for stdin, stdout and stderr), against the same CLI piped.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\n');
});
afterEach(async () => sandbox.remove());

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** `openwork <argv>` on a pseudo-terminal; what the terminal showed, with CR LF made LF. */
function onTerminal(argv: readonly string[], extraEnvironment: Record<string, string> = {}): string {
  const command = [process.execPath, OPENWORK_BIN, ...argv].map(quote).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], {
    env: { ...sandbox.environment, TERM: 'xterm-256color', ...extraEnvironment },
    cwd: sandbox.workspace,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.error).toBeUndefined();
  return run.stdout.replace(/\r\n/g, '\n');
}

const run = (argv: string[], stdinOrEnvironment?: string | Record<string, string>) =>
  runOpenwork(argv, {
    environment: { ...sandbox.environment, ...(typeof stdinOrEnvironment === 'object' ? stdinOrEnvironment : {}) },
    cwd: sandbox.workspace,
    ...(typeof stdinOrEnvironment === 'string' ? { stdin: stdinOrEnvironment } : {}),
  });

describe('openwork on a terminal (issue 29)', () => {
  it('bash output appears once on a terminal: streamed live, then only the status line', () => {
    const screen = onTerminal(['call', 'bash', JSON.stringify({ command: 'echo first-line; echo second-line' })]);
    expect(screen.match(/first-line/g)).toHaveLength(1);
    expect(screen.match(/second-line/g)).toHaveLength(1);
    expect(screen).toMatch(/second-line\n\[exit 0; duration \d+ ms\]\n/);
  });

  it('piped, the result is printed whole (nothing streamed)', async () => {
    const piped = await run(['call', 'bash', JSON.stringify({ command: 'echo first-line' })]);
    expect(piped.stdout).toMatch(/^first-line\n\[exit 0; duration \d+ ms\]\n$/);
  });

  it('changes --diff is coloured on a terminal, plain when piped; NO_COLOR and FORCE_COLOR are respected', async () => {
    const session = await run(['session'], `${JSON.stringify({ tool: 'read', input: { path: 'notes.txt' } })}\n${JSON.stringify({ tool: 'edit', input: { filePath: 'notes.txt', oldString: 'beta', newString: 'BETA' } })}\n`);
    const changeId = (JSON.parse(session.stdout.trim().split('\n')[1] ?? '{}') as { artifacts: { change: { changeId: string } }[] }).artifacts[0]?.change.changeId ?? '';
    const coloured = onTerminal(['changes', '--diff', changeId.slice(0, 13)]);
    expect(coloured).toContain('\x1b[31m-beta\x1b[0m');
    expect(coloured).toContain('\x1b[32m+BETA\x1b[0m');
    expect(coloured).toContain('\x1b[36m@@ -1,2 +1,2 @@\x1b[0m');
    expect(onTerminal(['changes', '--diff', changeId], { NO_COLOR: '1' })).not.toContain('\x1b[');
    const piped = await run(['changes', '--diff', changeId]);
    expect(piped.stdout).toBe('--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n');
    expect((await run(['changes', '--diff', changeId], { FORCE_COLOR: '1' })).stdout).toContain('\x1b[32m+BETA\x1b[0m');
  });

  it('the diff of a created file applies with GNU patch and git apply', async () => {
    const session = await run(['session'], `${JSON.stringify({ tool: 'write', input: { path: 'new.txt', content: 'one\ntwo\n' } })}\n`);
    const changeId = (JSON.parse(session.stdout.trim()) as { artifacts: { change: { changeId: string } }[] }).artifacts[0]?.change.changeId ?? '';
    const diff = (await run(['changes', '--diff', changeId])).stdout;
    expect(diff).toContain('@@ -0,0 +1,2 @@');
    for (const tool of [['patch', '-p1', '--batch', '-i', 'change.diff'], ['git', 'apply', 'change.diff']]) {
      const directory = await mkdtemp(join(tmpdir(), 'ow-apply-'));
      try {
        await writeFile(join(directory, 'change.diff'), diff);
        const applied = spawnSync(tool[0] ?? '', tool.slice(1), { cwd: directory, encoding: 'utf8' });
        expect({ tool: tool[0], status: applied.status, stderr: applied.stderr }).toEqual({ tool: tool[0], status: 0, stderr: '' });
        expect(await readFile(join(directory, 'new.txt'), 'utf8')).toBe('one\ntwo\n');
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }
  });

  it('"did you mean" for a mistyped command and a mistyped tool', async () => {
    const command = await run(['cal', 'read', '{}']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('openwork: unknown command "cal" (did you mean call?)');
    const tool = await run(['call', 'reed', '{"path":"notes.txt"}']);
    expect(tool.status).toBe(1);
    expect(tool.stdout).toContain('Tool "reed" is not available in this toolset. Did you mean read?');
  });

  it('undo takes the short id the changes table shows', async () => {
    const session = await run(['session'], `${JSON.stringify({ tool: 'write', input: { path: 'new.txt', content: 'x\n' } })}\n`);
    const changeId = (JSON.parse(session.stdout.trim()) as { artifacts: { change: { changeId: string } }[] }).artifacts[0]?.change.changeId ?? '';
    const table = (await run(['changes'])).stdout;
    expect(table).toMatch(/^CHANGE\s+TIME\s+TOOL\s+SESSION\s+PATH/);
    expect(table).toContain(`${changeId.slice(0, 13)} `);
    expect(table).toMatch(/\swrite\s/);
    const undo = await run(['undo', changeId.slice(0, 13)]);
    expect(undo.status).toBe(0);
    await expect(readFile(join(sandbox.workspace, 'new.txt'))).rejects.toThrow();
  });
});
