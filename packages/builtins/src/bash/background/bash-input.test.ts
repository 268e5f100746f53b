import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult, type ToolResult as Result } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { backgroundFixtures, backgroundTaskOf } from '../test-support/background-fixtures.js';
import type { BashFixture } from '../test-support/bash-fixture.js';
import { MAX_INPUT_BYTES } from './background-limits.js';

const { create: bashFixture } = backgroundFixtures();

function taskId(result: Result): string {
  return backgroundTaskOf(result).taskId;
}

/** bash_output until `needle` shows up (each read bounded by waitMs; the loop bounds the attempts). */
async function readUntil(fixture: BashFixture, id: string, needle: string, seen = ''): Promise<string> {
  let text = seen;
  for (let attempt = 0; attempt < 20 && !text.includes(needle); attempt += 1) text += `${ToolResult.text(await fixture.call('bash_output', { taskId: id, waitMs: 30_000 }))}\n`;
  return text;
}

/** Terminal control: ESC, CR, BEL, backspace and C1 controls never reach the model. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('bash_input and tty: true', () => {
  it('a REPL (python3 -i) on a pseudo-terminal, driven through bash_input, answers; its output is clean text', async () => {
    const fixture = await bashFixture();
    const started = await fixture.call('bash', { command: 'exec python3 -i -q', runInBackground: true, tty: true, yieldMs: 2_000, description: 'python REPL' });
    expect(started.status, ToolResult.text(started)).toBe('succeeded');
    const id = taskId(started);
    let text = await readUntil(fixture, id, '>>>', ToolResult.text(started));
    expect(text).toContain('>>>');

    text = ToolResult.text(await fixture.call('bash_input', { taskId: id, input: 'print(6 * 7)\n' }));
    text = await readUntil(fixture, id, '42', text);
    expect(text).toMatch(/^42$/m);
    // A real terminal, the sandbox's own: isatty holds, and its name is a pts of the sandbox's devpts.
    text = ToolResult.text(await fixture.call('bash_input', { taskId: id, input: 'import os, sys; print("tty", sys.stdin.isatty(), os.ttyname(0))\n' }));
    text = await readUntil(fixture, id, 'tty True', text);
    expect(text).toMatch(/tty True \/dev\/pts\/\d+/);
    expect(text).not.toMatch(CONTROL);

    const ended = await fixture.call('bash_input', { taskId: id, input: 'raise SystemExit(3)\n' });
    const final = await readUntil(fixture, id, `[task ${id}: exited`, ToolResult.text(ended));
    expect(final).toContain(`[task ${id}: exited 3]`);
  });

  it('a read -p prompt on a terminal is shown and answered', async () => {
    const fixture = await bashFixture();
    const started = await fixture.call('bash', {
      command: 'read -r -p "continue? [y/N] " answer; echo "answer=$answer"; [ "$answer" = y ]',
      runInBackground: true,
      tty: true,
      yieldMs: 2_000,
    });
    const id = taskId(started);
    const prompt = await readUntil(fixture, id, 'continue? [y/N]', ToolResult.text(started));
    expect(prompt).toContain('continue? [y/N] ');
    const answered = await fixture.call('bash_input', { taskId: id, input: 'y\n' });
    const text = await readUntil(fixture, id, `[task ${id}: exited`, ToolResult.text(answered));
    expect(text).toMatch(/^answer=y$/m);
    expect(text).toContain(`[task ${id}: exited 0]`);
    expect(text).not.toMatch(CONTROL);
  });

  it('without tty the text goes to a stdin pipe; bash does not source ~/.bashrc for it', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.home, '.bashrc'), 'echo BASHRC-RAN\n');
    const started = await fixture.call('bash', { command: 'while read -r line; do echo "got <$line>"; done; echo "stdin closed"', runInBackground: true, yieldMs: 300 });
    const id = taskId(started);
    const first = await fixture.call('bash_input', { taskId: id, input: 'one\ntwo\n' });
    expect(first.status).toBe('succeeded');
    const text = await readUntil(fixture, id, 'got <two>', `${ToolResult.text(started)}\n${ToolResult.text(first)}`);
    expect(text).toContain('got <one>\ngot <two>');
    expect(text).not.toContain('BASHRC-RAN');
    // Not a terminal: no echo of the input.
    expect(text).not.toMatch(/^one$/m);
  });

  it('refuses clearly and types nothing: unknown task, empty or too long input, an ended task, tty without runInBackground', async () => {
    const fixture = await bashFixture();
    const unknown = await fixture.call('bash_input', { taskId: 'bg-000000', input: 'x\n' });
    expect(unknown.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(unknown)).toContain('No background task "bg-000000" in this session');

    const done = await fixture.call('bash', { command: 'echo short', runInBackground: true, yieldMs: 5_000 });
    const id = taskId(done);
    await readUntil(fixture, id, `[task ${id}: exited 0]`, ToolResult.text(done));
    const ended = await fixture.call('bash_input', { taskId: id, input: 'late\n' });
    expect(ended.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(ended)).toContain(`Nothing was typed into task ${id}: it has ended: [task ${id}: exited 0]`);

    const empty = await fixture.call('bash_input', { taskId: id, input: '' });
    expect(empty.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(empty)).toContain('must not be empty');
    const long = await fixture.call('bash_input', { taskId: id, input: 'é'.repeat(MAX_INPUT_BYTES / 2 + 1) });
    expect(long.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(long)).toContain('bash_input takes at most 65,536 bytes (64 KiB) per call');

    const spawned = fixture.processes.spawns.length;
    const foregroundTty = await fixture.call('bash', { command: 'true', tty: true });
    expect(foregroundTty.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(foregroundTty)).toContain('needs runInBackground: true');
    expect(fixture.processes.spawns.length).toBe(spawned);
  });

  it('text typed into a shell is analysed like a bash command before it runs: a dangerous line is reported, with a description naming the task', async () => {
    const fixture = await bashFixture();
    const started = await fixture.call('bash', { command: 'exec bash --norc -i', runInBackground: true, tty: true, yieldMs: 500, description: 'a shell' });
    const id = taskId(started);
    const dangerous = fixture.toolset.prepare('bash_input', { taskId: id, input: 'rm -rf ~\n' });
    expect(dangerous.ok).toBe(true);
    if (!dangerous.ok) return;
    expect(dangerous.call.inspection).toMatchObject({ kind: 'runs', command: 'rm -rf ~\n', description: `input for background task ${id} (a shell)` });
    expect((dangerous.call.inspection['danger'] as { dangerous?: boolean } | undefined)?.dangerous).toBe(true);
    const harmless = fixture.toolset.prepare('bash_input', { taskId: id, input: 'ls\n' });
    expect(harmless.ok && harmless.call.inspection['danger']).toBeFalsy();
    // Text typed into a program that is not a shell is not shell syntax: a REPL line is never an approval.
    const repl = taskId(await fixture.call('bash', { command: 'exec python3 -i -q', runInBackground: true, tty: true, yieldMs: 0 }));
    const python = fixture.toolset.prepare('bash_input', { taskId: repl, input: 'print(sum(range(10)))\n' });
    expect(python.ok && python.call.inspection['danger']).toBeFalsy();
    const bash = fixture.toolset.prepare('bash', { command: 'sleep 1', description: 'wait a second' });
    expect(bash.ok && bash.call.inspection['description']).toBe('wait a second');
  });

  describe('typed input is judged as the line the shell will run (docs/decisions/0091)', () => {
    /** The danger findings prepare reports for `input` typed into task `id`, and the command the card shows. */
    function judged(fixture: BashFixture, id: string, input: string): { rules: string[]; command: string | undefined } {
      const prepared = fixture.toolset.prepare('bash_input', { taskId: id, input });
      if (!prepared.ok) throw new Error(ToolResult.text(prepared.result));
      const danger = prepared.call.inspection['danger'] as { findings?: { rule: string }[] } | undefined;
      return { rules: (danger?.findings ?? []).map((finding) => finding.rule), command: (prepared.call.inspection as { command?: string }).command };
    }

    it('on a pipe, text typed in two parts is one line: `git reset ` then `--hard\\n` is a hard reset', async () => {
      const fixture = await bashFixture();
      const id = taskId(await fixture.call('bash', { command: 'exec bash --norc', runInBackground: true, yieldMs: 0, description: 'a shell' }));
      expect(judged(fixture, id, 'git reset ').rules).toEqual([]);
      expect((await fixture.call('bash_input', { taskId: id, input: 'git reset ' })).status).toBe('succeeded');
      expect(judged(fixture, id, '--hard\n')).toEqual({ rules: ['git-hard-reset'], command: 'git reset --hard\n' });
      // Ended with Enter, a line is gone from the model: the next line stands alone.
      expect((await fixture.call('bash_input', { taskId: id, input: '--soft\n' })).status).toBe('succeeded');
      expect(judged(fixture, id, 'echo --hard\n').rules).toEqual([]);
    });

    it('on a terminal, line editing is applied first: Ctrl-U, Ctrl-W, Backspace and Ctrl-C change what runs', async () => {
      const fixture = await bashFixture();
      const id = taskId(await fixture.call('bash', { command: 'exec bash --norc -i', runInBackground: true, tty: true, yieldMs: 0, description: 'a shell' }));
      expect(judged(fixture, id, 'echo harmless\x15git reset --hard HEAD\n').rules).toEqual(['git-hard-reset']);
      expect(judged(fixture, id, 'git reset --soft\x17--hard\r').rules).toEqual(['git-hard-reset']);
      expect(judged(fixture, id, 'git reset --hardly\x7f\x7f\n').rules).toEqual(['git-hard-reset']);
      // The dangerous text erased before Enter never runs.
      expect(judged(fixture, id, 'git reset --hard\x15git status\n').rules).toEqual([]);
      expect(judged(fixture, id, 'git reset --hard\x03git status\n').rules).toEqual([]);
      // Typed in parts on the terminal too: the erase of the first part's word, then the rest.
      expect((await fixture.call('bash_input', { taskId: id, input: 'echo harmless' })).status).toBe('succeeded');
      expect(judged(fixture, id, '\x15git reset --hard\n')).toMatchObject({ rules: ['git-hard-reset'] });
    });

    it('on a terminal, a line edited with keys the model cannot follow is asked for when it runs', async () => {
      const fixture = await bashFixture();
      const id = taskId(await fixture.call('bash', { command: 'exec bash --norc -i', runInBackground: true, tty: true, yieldMs: 0, description: 'a shell' }));
      expect(judged(fixture, id, 'git status\x1b[D\x1b[D\n').rules).toEqual(['unparseable']);
      expect(judged(fixture, id, 'git sta\t\n').rules).toEqual(['unparseable']);
      expect(judged(fixture, id, '\x19\n').rules).toEqual(['unparseable']);
      // Not yet run (no Enter): nothing to ask; the Enter that runs it asks.
      expect(judged(fixture, id, 'git status\x1b[A').rules).toEqual([]);
      expect((await fixture.call('bash_input', { taskId: id, input: 'git status\x1b[A' })).status).toBe('succeeded');
      expect(judged(fixture, id, '\n').rules).toEqual(['unparseable']);
    });
  });
});
