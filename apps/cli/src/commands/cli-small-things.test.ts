import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, OPENWORK_BIN, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { runOnTerminal } from '../test-support/run-on-terminal.js';
import { xtermScreen } from '../test-support/xterm-screen.js';

// What a person meets at a terminal (docs/decisions/0093-cli-small-things-a-person-meets.md): the
// built CLI, piped and on a real pseudo-terminal.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => sandbox.remove());

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const openwork = (...argv: string[]) => [process.execPath, OPENWORK_BIN, ...argv].map(quote).join(' ');
const run = (argv: string[]) => runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace });

async function onTerminal(script: string, answer?: { prompt: string; answer: string }) {
  const result = await runOnTerminal(['sh', '-c', script], { environment: sandbox.environment, cwd: sandbox.workspace, ...answer });
  return { status: result.status, output: result.output, lines: (await xtermScreen(result.output)).lines };
}

describe('a reader that goes away', () => {
  it('openwork tools | head and call … | head end quietly: no EPIPE, the command’s own status', () => {
    for (const argv of [['tools'], ['call', 'bash', JSON.stringify({ command: 'seq 1 200000' })]]) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const piped = spawnSync('bash', ['-c', `${openwork(...argv)} 2>stderr.txt | head -1; echo "status \${PIPESTATUS[0]}"; cat stderr.txt`], {
          env: sandbox.environment,
          cwd: sandbox.workspace,
          encoding: 'utf8',
          timeout: 60_000,
        });
        const [first = '', status = '', ...stderr] = piped.stdout.split('\n');
        expect(first.length).toBeGreaterThan(0);
        expect({ argv: argv[0], status, stderr: stderr.join('\n') }).toMatchObject({ argv: argv[0], status: 'status 0' });
        expect(stderr.join('\n')).not.toMatch(/EPIPE|Unhandled|node:events|agentModels/);
      }
    }
  });

  it('on a terminal too: openwork tools | head -4 shows four lines and no trace', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { lines } = await onTerminal(`bash -c ${quote(`${openwork('tools')} | head -4; echo "status \${PIPESTATUS[0]}"`)}`);
      expect(lines[0]).toBe('read (read_only)');
      expect(lines.at(-1)).toBe('status 0');
      expect(lines.join('\n')).not.toMatch(/EPIPE|Error|node:events/);
    }
  });
});

describe('what openwork says', () => {
  it('tools prints no line a CLI user cannot act on (agentModels), and says in --help why there are no sub-agent tools', async () => {
    const tools = await run(['tools']);
    expect(tools.status).toBe(0);
    expect(tools.stderr).toBe('');
    expect((await run(['tools', '--help'])).stdout).toContain('createRuntime({ agentModels })');
  });

  it('an unknown tool: every tool is listed (update_plan too), and no stored session is made or announced', async () => {
    const unknown = await run(['call', 'reed', '{"path":"notes.txt"}']);
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toContain('Did you mean read?');
    expect(unknown.stdout).toMatch(/Available tools: .*\bupdate_plan\b/);
    expect(unknown.stderr).not.toMatch(/session/);
    const database = new DatabaseSync(join(sandbox.openworkHome, 'sessions.sqlite'), { readOnly: true });
    try {
      expect(database.prepare('SELECT count(*) AS count FROM sessions').get()).toEqual({ count: 0 });
    } finally {
      database.close();
    }
  });

  it('a mistyped option gets a suggestion', async () => {
    const mistyped = await run(['call', 'read', '{"path":"x"}', '--worksapce', '.']);
    expect(mistyped.status).toBe(2);
    expect(mistyped.stderr).toContain('unknown option --worksapce (did you mean --workspace?)');
    expect((await run(['tools', '--jsno'])).stderr).toContain('(did you mean --json?)');
    expect((await run(['changes', '--sesion', 'x'])).stderr).toContain('(did you mean --session?)');
  });

  it('doctor has a grep engine row', async () => {
    const doctor = await run(['doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as Record<string, string>;
    expect(report['grep']).toMatch(/^re2 loads on Node v\d+/);
  });
});

describe('approvals a person answers', () => {
  it('an escalated edit of a file never read fails before anyone is asked; after a read, "y" makes it succeed', async () => {
    const outside = join(sandbox.root, 'outside');
    await mkdir(outside);
    const target = join(outside, 'x.txt');
    await writeFile(target, 'alpha\n');
    const edit = JSON.stringify({ filePath: target, oldString: 'alpha', newString: 'beta', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: 'fix the file' });
    const unread = await onTerminal(openwork('call', 'edit', edit), { prompt: '[y/N]', answer: 'y' });
    expect(unread.output).not.toContain('Allow this call?');
    expect(unread.lines).toContain(`│ Read ${target} before editing it.`);
    expect(await readFile(target, 'utf8')).toBe('alpha\n');

    const read = await run(['call', 'read', JSON.stringify({ path: target })]);
    const session = /--session (\S+)\)/.exec(read.stderr)?.[1] ?? '';
    const edited = await onTerminal(openwork('call', 'edit', edit, '--session', session), { prompt: '[y/N]', answer: 'y' });
    expect(edited.lines).toContain('Allow this call? [y/N] y');
    expect(edited.status).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('beta\n');
  });

  it('after "n" the person reads what happened, not the text meant for the model', async () => {
    const target = join(sandbox.home, '.bashrc');
    const write = JSON.stringify({ path: target, content: 'x\n', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: 'set up the shell' });
    const refused = await onTerminal(openwork('call', 'write', write), { prompt: '[y/N]', answer: 'n' });
    expect(refused.status).toBe(1);
    expect(refused.lines).toContain('Not run: you refused it at the prompt; nothing was changed.');
    expect(refused.output).not.toContain('Do not repeat the same call');
    // --json still gives the whole result, as the model got it.
    const json = await onTerminal(openwork('call', 'write', write, '--json'), { prompt: '[y/N]', answer: 'n' });
    expect(json.output).toContain('Do not repeat the same call');
  });

  it('a silent command shows that it is running', async () => {
    const silent = await onTerminal(openwork('call', 'bash', JSON.stringify({ command: 'sleep 4' })));
    expect(silent.status).toBe(0);
    expect(silent.output).toMatch(/running… \d+ s \(Ctrl-C stops it\)/);
    // Erased again: the screen ends with the status line, not the indicator.
    expect(silent.lines.join('\n')).not.toContain('running…');
    expect(silent.lines.some((line) => /^\[exit 0; duration \d+ ms\]$/.test(line))).toBe(true);
  });

  it('on a terminal with stdout sent to a file, the file gets the whole result (the output streamed to the terminal too)', async () => {
    const shown = await onTerminal(`${openwork('call', 'bash', JSON.stringify({ command: 'echo to-the-file' }))} > out.txt`);
    expect(shown.status).toBe(0);
    expect(shown.lines).toContain('│ to-the-file');
    expect(await readFile(join(sandbox.workspace, 'out.txt'), 'utf8')).toMatch(/^to-the-file\n\[exit 0; duration \d+ ms\]\n$/);
  });
});
