import { mkdirSync } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { ApprovalCard, ApprovalContext } from './approval.js';
import { renderApprovalCard } from './render-approval-card.js';

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

/** An approver that answers from a list and keeps every card it was shown. */
function recordingApprover(...answers: (boolean | { approved: false; reason?: string })[]) {
  const cards: ApprovalCard[] = [];
  const contexts: ApprovalContext[] = [];
  const approver = (card: ApprovalCard, context: ApprovalContext) => {
    cards.push(card);
    contexts.push(context);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than expected');
    return answer;
  };
  return { approver, cards, contexts };
}

function grant(path: string, access: 'read' | 'write' = 'write') {
  return { sandboxPermissions: { paths: [{ path, access, scope: 'exact' }] }, justification: 'The user asked for the report there.' };
}

describe('approvals (architecture §3.3, §4)', () => {
  it('a refused escalation is denied, nothing runs, and the model is told not to repeat it', async () => {
    const machine = await fixture();
    expect(machine.runtime.escalationAvailable).toBe(true);
    const session = await machine.session();
    const target = join(machine.outside, 'report.txt');
    const { approver, cards, contexts } = recordingApprover({ approved: false, reason: 'not outside the project' });
    const { callId, result } = await session.callTool('write', { path: target, content: 'x', ...grant(target) }, { approver });

    expect(cards).toEqual([
      {
        toolId: 'write',
        reasons: ['escalation'],
        target,
        paths: [{ path: target, access: 'write', scope: 'exact' }],
        justification: 'The user asked for the report there.',
      },
    ]);
    expect(contexts[0]).toMatchObject({ sessionId: session.id, callId });
    expect(result.status).toBe('denied');
    expect(result.sandboxDenied).toBe(false);
    expect(ToolResult.text(result)).toBe(
      `The user did not approve this call (access to ${target} (write, exact)): not outside the project. Nothing was run. Do not repeat the same call; continue another way or ask the user.`,
    );
    expect(await exists(target)).toBe(false);
  });

  it('an approved escalation widens exactly one call: the next call without it is denied', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const first = join(machine.outside, 'first.txt');
    const second = join(machine.outside, 'second.txt');
    const { approver, cards } = recordingApprover(true);
    const approved = await session.callTool('write', { path: first, content: 'granted\n', ...grant(first) }, { approver });
    expect(ToolResult.text(approved.result)).toBe(`Created ${first} (+1)`);
    expect(await readFile(first, 'utf8')).toBe('granted\n');

    const next = await session.callTool('write', { path: second, content: 'not granted\n' }, { approver });
    expect(cards).toHaveLength(1); // nothing to ask: the call asks for nothing extra
    expect(next.result.status).toBe('denied');
    expect(next.result.sandboxDenied).toBe(true);
    expect(ToolResult.text(next.result)).toMatch(new RegExp(`^Permission denied: ${second} is outside the writable roots of this session\\. To get access, call write again with sandboxPermissions`));
    expect(await exists(second)).toBe(false);
    // The session's own policy never took the grant.
    expect(session.sandboxPolicy().grants).toEqual([]);
  });

  it('an approved escalation widens exactly one bash call: the next one is denied by the kernel', async () => {
    const machine = await fixture();
    const session = await machine.session();
    if (!session.toolIds.includes('bash')) return expect.fail('bash is not in the default toolset yet (it lands with builtins bash)');
    const target = join(machine.outside, 'out.txt');
    const { approver } = recordingApprover(true);
    const granted = await session.callTool('bash', { command: `echo granted > ${target}`, ...grant(target) }, { approver });
    expect(granted.result.status).toBe('succeeded');
    expect(await readFile(target, 'utf8')).toBe('granted\n');

    const next = await session.callTool('bash', { command: `echo again > ${target}` }, { approver });
    expect(next.result.sandboxDenied).toBe(true);
    expect(ToolResult.text(next.result)).toContain('[sandbox denied');
    expect(await readFile(target, 'utf8')).toBe('granted\n');
  });

  it('a dangerous command asks first: refused, it does not run; approved, it runs', async () => {
    const machine = await fixture();
    const session = await machine.session();
    if (!session.toolIds.includes('bash')) return expect.fail('bash is not in the default toolset yet (it lands with builtins bash)');
    const { approver, cards } = recordingApprover({ approved: false }, true);
    const command = 'touch ran.txt && git reset --hard';
    const refused = await session.callTool('bash', { command }, { approver });
    expect(cards[0]).toMatchObject({ toolId: 'bash', reasons: ['danger'], command, paths: [] });
    expect(cards[0]?.danger?.findings.map((finding) => finding.rule)).toEqual(['git-hard-reset']);
    expect(cards[0]?.danger?.reason).toBe(cards[0]?.danger?.findings[0]?.reason);
    expect(refused.result.status).toBe('denied');
    expect(ToolResult.text(refused.result)).toMatch(/^The user did not approve this call \(a dangerous command: .+\)\. Nothing was run\./);
    expect(await exists(join(machine.workspace, 'ran.txt'))).toBe(false);

    const approved = await session.callTool('bash', { command }, { approver });
    expect(cards).toHaveLength(2);
    expect(approved.result.status).toBe('succeeded'); // a non-zero exit is a completed call (§10)
    expect(ToolResult.text(approved.result)).toContain('not a git repository');
    expect(await exists(join(machine.workspace, 'ran.txt'))).toBe(true);
  });

  it('a hard reset typed into a background shell in two parts is asked for as the whole line (docs/decisions/0091)', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const { approver, cards } = recordingApprover({ approved: false });
    const { result: started } = await session.callTool('bash', { command: 'exec bash --norc', runInBackground: true, yieldMs: 0, description: 'a shell' });
    const taskId = String(started.artifacts.find((artifact) => artifact.kind === 'background_task')?.['taskId']);
    expect((await session.callTool('bash_input', { taskId, input: 'git reset ' }, { approver })).result.status).toBe('succeeded');
    expect(cards).toHaveLength(0);
    const refused = await session.callTool('bash_input', { taskId, input: '--hard\n' }, { approver });
    expect(refused.result.status).toBe('denied');
    expect(cards[0]).toMatchObject({ toolId: 'bash_input', reasons: ['danger'], command: 'git reset --hard\n' });
  });

  it('dangerous text typed into a background shell asks first, like bash: refused, nothing is typed', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const { approver, cards } = recordingApprover({ approved: false }, true);
    const { result: started } = await session.callTool('bash', { command: 'exec bash --norc', runInBackground: true, yieldMs: 0, description: 'a shell' });
    const taskId = String(started.artifacts.find((artifact) => artifact.kind === 'background_task')?.['taskId']);
    const input = 'touch typed.txt && git reset --hard\n';
    const refused = await session.callTool('bash_input', { taskId, input }, { approver });
    expect(cards[0]).toMatchObject({ toolId: 'bash_input', reasons: ['danger'], command: input, description: `input for background task ${taskId} (a shell)` });
    // The danger first (a client may show only three lines), then what is typed, then where.
    const lines = renderApprovalCard(cards[0] as ApprovalCard).split('\n');
    expect(lines[1]).toMatch(/^  danger: /);
    expect(lines.slice(-2)).toEqual(['  command: touch typed.txt && git reset --hard\\n', `  description: input for background task ${taskId} (a shell)`]);
    expect(refused.result.status).toBe('denied');
    // The shell never got the refused line: asked afterwards, it has no typed.txt.
    let seen = ToolResult.text((await session.callTool('bash_input', { taskId, input: 'ls typed.txt; echo checked-$((6*7))\n' })).result);
    for (let attempt = 0; attempt < 20 && !seen.includes('checked-42'); attempt += 1) seen += ToolResult.text((await session.callTool('bash_output', { taskId, waitMs: 30_000 })).result);
    expect(seen).toContain('No such file');
    const approved = await session.callTool('bash_input', { taskId, input }, { approver });
    expect(approved.result.status).toBe('succeeded');
    for (let attempt = 0; attempt < 200 && !(await exists(join(machine.workspace, 'typed.txt'))); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await exists(join(machine.workspace, 'typed.txt'))).toBe(true);
  });

  it('a granted path whose name is not valid UTF-8 shows on the card as the tools show it (\\xNN)', async () => {
    const machine = await fixture();
    const session = await machine.session();
    mkdirSync(Buffer.concat([Buffer.from(`${machine.outside}/caf`), Buffer.from([0xe9])]));
    const spelled = `${machine.outside}/caf\\xE9`;
    const { approver, cards } = recordingApprover({ approved: false });
    await session.callTool('write', { path: `${spelled}/x.txt`, content: 'x', ...grant(`${spelled}/x.txt`) }, { approver });
    expect(cards).toHaveLength(1);
    expect(renderApprovalCard(cards[0] as ApprovalCard)).toContain(`  write access to ${spelled}/x.txt (exact)`);
  });

  it('without an approver, a call that needs one is denied', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const target = join(machine.outside, 'x.txt');
    const { result } = await session.callTool('write', { path: target, content: 'x', ...grant(target) });
    expect(result.status).toBe('denied');
    expect(ToolResult.text(result)).toBe(
      `This call needs the user's approval (access to ${target} (write, exact)), but no one can approve calls in this session, so it was not run. Continue without it, or ask the user to do it.`,
    );
    expect(await exists(target)).toBe(false);
  });

  it('a hard-protected target is denied without asking, even with a grant for it', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const { approver, cards } = recordingApprover();
    const inHome = join(machine.openworkHome, 'config.json');
    for (const input of [
      { path: '~/.openwork/config.json', content: '{}' },
      { path: 'notes.txt', content: 'x', ...grant(inHome) },
      { path: '.openwork/settings.json', content: '{}' },
    ]) {
      const { result } = await session.callTool('write', input, { approver });
      expect(result.status).toBe('denied');
      expect(result.sandboxDenied).toBe(false);
      expect(ToolResult.text(result)).toMatch(/^Permission denied: .+ is protected and cannot be changed by tools\.$/);
    }
    expect(cards).toEqual([]);
    expect(await exists(inHome)).toBe(false);
    expect(await exists(join(machine.workspace, 'notes.txt'))).toBe(false);
  });

  it('an approver that throws denies the call; cancelling while it waits cancels the call', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const target = join(machine.outside, 'x.txt');
    const failing = await session.callTool('write', { path: target, content: 'x', ...grant(target) }, {
      approver: () => {
        throw new Error('the prompt window was closed');
      },
    });
    expect(failing.result.status).toBe('denied');
    expect(ToolResult.text(failing.result)).toContain('failed (the prompt window was closed), so it was not run.');

    const controller = new AbortController();
    const waiting = await session.callTool('write', { path: target, content: 'x', ...grant(target) }, {
      signal: controller.signal,
      approver: () => {
        controller.abort();
        return new Promise<boolean>(() => undefined); // never answers
      },
    });
    expect(waiting.result.status).toBe('cancelled');
    expect(await exists(target)).toBe(false);
  });

  it('prepare says whether a call needs approval, and why, without running it', async () => {
    const machine = await fixture();
    const session = await machine.session();
    await writeFile(join(machine.workspace, 'a.txt'), 'a\n');
    const target = join(machine.outside, 'x.txt');
    expect(session.prepare('read', { path: 'a.txt' })).toMatchObject({ status: 'ready', call: { toolId: 'read', inspection: { kind: 'read_only' } } });
    expect(session.prepare('nope', {})).toMatchObject({ status: 'rejected', result: { error: { code: 'tool_not_found' } } });
    expect(session.prepare('read', { path: 1 })).toMatchObject({ status: 'rejected', result: { error: { code: 'invalid_arguments' } } });
    expect(session.prepare('write', { path: '~/.openwork/x', content: '' })).toMatchObject({ status: 'denied', result: { status: 'denied' } });
    const needs = session.prepare('write', { path: target, content: 'x', ...grant(target) });
    expect(needs).toMatchObject({ status: 'needs_approval', card: { reasons: ['escalation'], paths: [{ path: target, access: 'write', scope: 'exact' }] }, grants: [{ path: target }] });
    expect(await exists(target)).toBe(false);
    expect(await session.messages()).toEqual([]);
  });

  it('in a turn, the approver of the turn is asked and the model reads the refusal', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const target = join(machine.outside, 'x.txt');
    const { approver, contexts } = recordingApprover({ approved: false });
    const model = new ScriptedModel([[callTool('call_1', 'write', { path: target, content: 'x', ...grant(target) })], [say('Understood.')]]);
    const outcome = await session.runTurn({ input: 'write outside', model, approver });
    expect(outcome.status).toBe('completed');
    expect(contexts.map((context) => context.callId)).toEqual(['call_1']);
    const refusal = model.requests[1]?.messages.at(-1);
    expect(refusal).toMatchObject({ role: 'tool', toolCallId: 'call_1', isError: true });
    expect(refusal?.role === 'tool' && refusal.text).toMatch(/^The user did not approve this call/);
  });
});
