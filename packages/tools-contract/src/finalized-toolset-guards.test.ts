import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, FinalizedToolset, ToolCallContextError, ToolRegistryBuilder, type ToolCallContext, ToolResult } from './index.js';
import { callContext } from './test-support/call-context.js';

let runs = 0;
const echoTool = defineTool({
  id: 'echo',
  description: 'Echo the text.',
  risk: 'read_only',
  inputSchema: z.strictObject({ text: z.string() }),
  execute: (input) => {
    runs += 1;
    return input.text;
  },
});

const textOf = (result: ToolResult) => ToolResult.text(result);

function toolset() {
  return new ToolRegistryBuilder().register(echoTool).finalize({ tools: ['echo'] }, undefined);
}

/** What `call` rejected with, asserting it is our error type and not a TypeError from a property access. */
async function contextError(context: unknown): Promise<ToolCallContextError> {
  const before = runs;
  const error = await toolset()
    .call('echo', { text: 'hi' }, context as ToolCallContext)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(runs, 'the tool must not run with a broken context').toBe(before);
  if (!ToolCallContextError.isInstance(error)) throw new Error(`expected a ToolCallContextError, got ${String(error)}`);
  return error;
}

describe('FinalizedToolset guards', () => {
  it('only finalize can make one: a forged key is refused even with well-formed parts', () => {
    const Forgeable = FinalizedToolset as unknown as new (key: symbol, parts: unknown) => unknown;
    const parts = { adapters: [], session: undefined, spill: undefined, escalationAvailable: false, digest: '0'.repeat(64) };
    expect(() => new Forgeable(Symbol('openwork.tools-contract.finalize'), parts)).toThrow(
      new TypeError('A FinalizedToolset is made by ToolRegistryBuilder.finalize(config, session).'),
    );
  });

  it('a call context that is not an object is a ToolCallContextError', async () => {
    for (const context of [null, undefined, 'call_1', 42]) {
      expect((await contextError(context)).message).toBe('FinalizedToolset.call needs a ToolCallContext { callId, signal, sandboxPolicy }.');
    }
  });

  it('a call ID that is not a non-blank string is a ToolCallContextError, not a TypeError', async () => {
    for (const callId of [42, null, undefined, '', ' \t\n', { id: 'x' }]) {
      const error = await contextError({ ...callContext(), callId });
      expect(error.message, String(callId)).toBe("ToolCallContext.callId must be a non-blank string: pass the model's tool-call ID.");
    }
  });

  it('a signal that is not an AbortSignal (null, missing, without a boolean aborted) is a ToolCallContextError', async () => {
    for (const signal of [null, undefined, 'signal', {}, { aborted: 'no' }]) {
      const error = await contextError({ ...callContext(), signal });
      expect(error.message).toBe('ToolCallContext.signal must be an AbortSignal: derive one from the turn (AbortSignal.any).');
    }
  });

  it('a deadline that is not finite epoch milliseconds, or a progress that is not a function, is a ToolCallContextError', async () => {
    for (const deadline of [Number.NaN, Number.POSITIVE_INFINITY, '1700000000000']) {
      expect((await contextError({ ...callContext(), deadline })).message).toBe(
        'ToolCallContext.deadline must be epoch milliseconds (a finite number) or absent.',
      );
    }
    for (const progress of [null, 'log', {}]) {
      expect((await contextError({ ...callContext(), progress })).message).toBe('ToolCallContext.progress must be a function or absent.');
    }
  });

  it('a complete context runs the tool, with or without the optional fields', async () => {
    const set = toolset();
    expect(textOf(await set.call('echo', { text: 'a' }, callContext()))).toBe('a');
    expect(textOf(await set.call('echo', { text: 'b' }, callContext({ deadline: Date.now() + 60_000, progress: () => undefined })))).toBe('b');
    // A signal from another realm or a polyfill: anything with a boolean `aborted` will do.
    const lookalike = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {}, throwIfAborted() {} };
    expect(textOf(await set.call('echo', { text: 'c' }, { ...callContext(), signal: lookalike as unknown as AbortSignal }))).toBe('c');
  });

  it('a tool outside the toolset is answered with the available tools, comma-separated', async () => {
    const other = defineTool({ id: 'other', description: 'Another tool.', risk: 'read_only', inputSchema: z.strictObject({}), execute: () => 'other' });
    const two = new ToolRegistryBuilder().register(echoTool).register(other).finalize({ tools: ['echo', 'other'] }, undefined);
    expect(textOf(await two.call('missing', {}, callContext()))).toBe(
      'Tool "missing" is not available in this toolset. Available tools: echo, other. Call one of those instead.',
    );
  });

  it('an empty toolset names no tools when one is asked for', async () => {
    const empty = new ToolRegistryBuilder().register(echoTool).finalize({ tools: [] }, undefined);
    const result = await empty.call('echo', { text: 'x' }, callContext());
    expect(result.error?.code).toBe('tool_not_found');
    expect(textOf(result)).toBe('Tool "echo" is not available in this toolset. Available tools: none. Call one of those instead.');
    const prepared = empty.prepare('echo', { text: 'x' });
    expect(prepared.ok === false && textOf(prepared.result)).toBe(textOf(result));
  });
});
