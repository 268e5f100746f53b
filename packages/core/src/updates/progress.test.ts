import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult, type ToolResult as ToolResultValue } from '@openwork/tools-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../session/session.js';
import { createCoreFixture, recordUpdates, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { SessionUpdate } from './session-update.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

function requireBash(session: Session): void {
  if (!session.toolIds.includes('bash')) expect.fail('bash is not in the default toolset yet (it lands with builtins bash)');
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The stdout of a call's progress, in order. */
function progressOf(updates: readonly SessionUpdate[], callId: string): string {
  return updates.flatMap((update) => (update.type === 'tool_call_progress' && update.callId === callId && update.progress.kind === 'stdout' ? [update.progress.chunk] : [])).join('');
}

/** A result with the measured duration taken out, the only part that differs between two runs. */
function withoutDuration(result: ToolResultValue): unknown {
  return JSON.parse(JSON.stringify(result).replace(/duration \d+ ms/g, 'duration N ms'));
}

/** Prints 1…120, one line at a time with a busy pause (no process per line), so the call reports many progress updates. */
const SLOW_COUNT = 'for i in {1..120}; do echo $i; for j in {1..800}; do :; done; done';
const COUNTED = `${Array.from({ length: 120 }, (_, index) => index + 1).join('\n')}\n`;

describe('progress (§8.3)', () => {
  it('tool_progress_is_forwarded_before_the_terminal_tool_update', async () => {
    const machine = await fixture();
    const session = await machine.session();
    requireBash(session);
    const updates = recordUpdates(session);
    // A second subscriber that takes its time with every update still sees the same order.
    const slow: SessionUpdate[] = [];
    session.subscribe(async (update) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      slow.push(update);
    });
    const model = new ScriptedModel([[callTool('call_1', 'bash', { command: 'for i in 1 2 3; do echo line-$i; sleep 0.05; done' })], [say('done')]]);
    const outcome = await session.runTurn({ input: 'count', model });
    expect(outcome.status).toBe('completed');
    await vi.waitFor(() => expect(slow.at(-1)?.type).toBe('turn_finished'));

    for (const seen of [updates, slow]) {
      const finishedAt = seen.findIndex((update) => update.type === 'tool_call_finished' && update.callId === 'call_1');
      const progressAt = seen.flatMap((update, index) => (update.type === 'tool_call_progress' ? [index] : []));
      expect(progressAt.length).toBeGreaterThan(0);
      expect(Math.max(...progressAt)).toBeLessThan(finishedAt);
      expect(seen[seen.findIndex((update) => update.type === 'tool_call_started')]).toMatchObject({ callId: 'call_1', toolId: 'bash' });
    }
    expect(progressOf(updates, 'call_1')).toBe('line-1\nline-2\nline-3\n');
    expect(updates.map((update) => update.type).filter((type) => type !== 'tool_call_progress')).toEqual(['turn_started', 'tool_call_started', 'tool_call_finished', 'assistant_text', 'turn_finished']);
    // Progress is never stored (§8.3): the conversation holds the one final result.
    expect((await session.messages()).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('disconnected_progress_consumer_does_not_fail_the_tool_call', async () => {
    const machine = await fixture();
    const quiet = await machine.session();
    requireBash(quiet);
    const reference = await quiet.callTool('bash', { command: SLOW_COUNT });
    expect(ToolResult.text(reference.result)).toMatch(/^1\n2\n[\s\S]*\n120\n\[exit 0; duration \d+ ms\]$/);

    const noisy = await machine.session();
    // A subscriber that throws on everything, one that never finishes taking an update, one that
    // goes away during the call, and a per-call listener that throws.
    noisy.subscribe(() => {
      throw new Error('the socket is closed');
    });
    noisy.subscribe(() => new Promise(() => undefined));
    const leaving = noisy.subscribe((update) => {
      if (update.type === 'tool_call_progress') leaving();
    });
    let perCall = 0;
    const disconnected = await noisy.callTool('bash', { command: SLOW_COUNT }, {
      onProgress: () => {
        perCall += 1;
        throw new Error('write after end');
      },
    });
    expect(perCall).toBeGreaterThan(0);
    // The same result as without any consumer, apart from the time it took.
    expect(withoutDuration(disconnected.result)).toEqual(withoutDuration(reference.result));
    expect(ToolResult.text(disconnected.result).startsWith(COUNTED)).toBe(true);
    // The session goes on working.
    expect((await noisy.callTool('bash', { command: 'echo still here' })).result.status).toBe('succeeded');
  });

  it('cancelling_a_turn_cancels_the_active_tool_call', async () => {
    const machine = await fixture();
    const session = await machine.session();
    requireBash(session);
    const controller = new AbortController();
    const updates = recordUpdates(session);
    session.subscribe((update) => {
      if (update.type === 'tool_call_progress' && update.callId === 'call_sleep' && progressOf([update], 'call_sleep').includes('started')) controller.abort();
    });
    const model = new ScriptedModel([
      [callTool('call_sleep', 'bash', { command: 'echo started; sleep 100; echo finished' }), callTool('call_after', 'write', { path: 'after.txt', content: 'x' })],
      [say('never asked')],
    ]);
    const outcome = await session.runTurn({ input: 'wait a long time', model, signal: controller.signal });

    expect(outcome.status).toBe('cancelled');
    expect(model.requests).toHaveLength(1);
    const results = Object.fromEntries(outcome.messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.result]] : [])));
    expect(results['call_sleep']?.status).toBe('cancelled');
    expect(ToolResult.text(results['call_sleep']!)).toMatch(/^started\n\[cancelled; duration \d+ ms\]$/);
    // The call after it never ran, and still has its result, so the conversation stays valid.
    expect(results['call_after']?.status).toBe('cancelled');
    expect(ToolResult.text(results['call_after']!)).toBe('The call was cancelled before it started. Nothing was run.');
    expect(await exists(join(machine.workspace, 'after.txt'))).toBe(false);
    expect(updates.at(-1)).toMatchObject({ type: 'turn_finished', status: 'cancelled' });
    expect(session.isActive).toBe(false);
  });

  it('cancelling one call ends that call, and the turn goes on', async () => {
    const machine = await fixture();
    const session = await machine.session();
    requireBash(session);
    session.subscribe((update) => {
      if (update.type === 'tool_call_progress' && progressOf([update], update.callId).includes('started')) session.cancelCall(update.callId);
    });
    const model = new ScriptedModel([[callTool('call_1', 'bash', { command: 'echo started; sleep 100' })], [say('It was cancelled.')]]);
    const outcome = await session.runTurn({ input: 'wait', model });
    expect(outcome.status).toBe('completed');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1', isError: true });
  });
});
