import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, type ToolProgress, type ToolProgressListener, ToolRegistryBuilder, type ToolResult } from './index.js';
import { callContext } from './test-support/call-context.js';
import { PROGRESS_IN_FLIGHT_LIMIT, ToolProgressReporter } from './tool-progress-reporter.js';

/** A tool that streams progress while it works, and whose result depends only on its input. */
const streaming = defineTool({
  id: 'stream',
  description: 'Streams progress.',
  risk: 'process_execution',
  inputSchema: z.object({ chunks: z.number().int().min(0).max(500) }),
  execute: async (input, _session, call) => {
    let output = '';
    for (let index = 0; index < input.chunks; index++) {
      const chunk = `chunk ${index}\n`;
      output += chunk;
      call.reportProgress({ kind: index % 2 === 0 ? 'stdout' : 'stderr', chunk });
      if (index % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    call.reportProgress({ kind: 'message', message: 'done' });
    return { text: output, artifacts: [{ kind: 'summary', chunks: input.chunks }] };
  },
});

const toolset = new ToolRegistryBuilder().register(streaming).finalize({ tools: ['stream'] }, undefined);

function run(progress: ToolProgressListener | undefined, chunks = 300): Promise<ToolResult> {
  return toolset.call('stream', { chunks }, callContext(progress === undefined ? {} : { progress }));
}

describe('progress (§8.3)', () => {
  it('progress_never_fails_a_call: results are identical with no consumer, a working one and broken ones', async () => {
    const received: ToolProgress[] = [];
    const never = new Promise<never>(() => {});
    const consumers: Record<string, ToolProgressListener | undefined> = {
      none: undefined,
      working: (progress) => {
        received.push(progress);
      },
      throwing: () => {
        throw new Error('consumer disconnected');
      },
      rejecting: async () => {
        throw new Error('consumer closed');
      },
      // A consumer that never finishes: the call does not wait for it.
      stuck: () => never,
      // A thenable whose then() itself throws.
      hostile: () => ({
        then() {
          throw new Error('hostile thenable');
        },
      }),
      intermittent: (progress) => {
        if (progress.kind === 'stderr') throw new TypeError('cannot write stderr');
      },
    };
    const results: Record<string, ToolResult> = {};
    for (const [name, consumer] of Object.entries(consumers)) results[name] = await run(consumer);

    for (const [name, result] of Object.entries(results)) {
      expect(result, name).toEqual(results['none']);
    }
    expect(results['none']?.status).toBe('succeeded');
    expect(received).toHaveLength(301);
    expect(received[0]).toEqual({ kind: 'stdout', chunk: 'chunk 0\n' });
    expect(received[1]).toEqual({ kind: 'stderr', chunk: 'chunk 1\n' });
    expect(received.at(-1)).toEqual({ kind: 'message', message: 'done' });
  });

  it('delivers in order and nothing after the result', async () => {
    const events: string[] = [];
    let late: ((progress: ToolProgress) => void) | undefined;
    const lingering = defineTool({
      id: 'lingering',
      description: 'Keeps its reporter after it returns.',
      risk: 'read_only',
      inputSchema: z.object({}),
      execute: (_input, _session, call) => {
        call.reportProgress({ kind: 'message', message: 'first' });
        call.reportProgress({ kind: 'message', message: 'second' });
        late = (progress) => call.reportProgress(progress);
        return 'result';
      },
    });
    const lingeringToolset = new ToolRegistryBuilder().register(lingering).finalize({ tools: ['lingering'] }, undefined);
    await lingeringToolset.call(
      'lingering',
      {},
      callContext({
        progress: (progress) => {
          events.push(progress.kind === 'message' ? progress.message : progress.chunk);
        },
      }),
    );
    events.push('result');
    late?.({ kind: 'message', message: 'too late' });
    expect(events).toEqual(['first', 'second', 'result']);
  });

  it('drops updates while 64 deliveries to a slow consumer are pending, then recovers', async () => {
    const releases: (() => void)[] = [];
    const seen: ToolProgress[] = [];
    const reporter = new ToolProgressReporter((progress) => {
      seen.push(progress);
      return new Promise<void>((resolve) => releases.push(resolve));
    });
    for (let index = 0; index < 100; index++) reporter.report({ kind: 'stdout', chunk: String(index) });
    expect(seen).toHaveLength(PROGRESS_IN_FLIGHT_LIMIT);
    expect(reporter.dropped).toBe(100 - PROGRESS_IN_FLIGHT_LIMIT);

    for (const release of releases.splice(0)) release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reporter.delivered).toBe(PROGRESS_IN_FLIGHT_LIMIT);
    reporter.report({ kind: 'message', message: 'after' });
    expect(seen.at(-1)).toEqual({ kind: 'message', message: 'after' });

    reporter.close();
    reporter.report({ kind: 'message', message: 'closed' });
    expect(seen.at(-1)).toEqual({ kind: 'message', message: 'after' });
    expect(reporter.dropped).toBe(100 - PROGRESS_IN_FLIGHT_LIMIT + 1);
  });

  it('a throwing consumer only loses its own updates', () => {
    let calls = 0;
    const reporter = new ToolProgressReporter(() => {
      calls++;
      if (calls % 2 === 0) throw new Error('every other update fails');
    });
    for (let index = 0; index < 10; index++) expect(() => reporter.report({ kind: 'stdout', chunk: 'x' })).not.toThrow();
    expect(calls).toBe(10);
    expect(reporter.delivered).toBe(5);
    expect(reporter.dropped).toBe(5);
  });
});
