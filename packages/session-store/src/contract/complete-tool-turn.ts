import { ToolResult } from '@openwork/tools-contract';
import type { NewMessage } from '../new-message.js';

/**
 * A complete tool turn as core writes it: the user's request, the model's answer with two tool
 * calls, a tool result with a `file_change` artifact (§8.4) and one with a failure, and the
 * model's closing answer. Used by the contract suite and by each store's own round-trip test.
 * `prefix` keeps ids distinct when several turns go into one session.
 */
export function completeToolTurn(prefix = 'turn-1'): NewMessage[] {
  const before = 'export const greeting = "hello";\n';
  const after = 'export const greeting = "hello, world";\n';
  return [
    { id: `${prefix}-user`, role: 'user', text: 'Say hello to the world in src/greeting.ts, then run the tests.' },
    {
      id: `${prefix}-assistant`,
      role: 'assistant',
      text: "I'll edit the greeting and run the tests.",
      toolCalls: [
        { id: `${prefix}-call-edit`, toolId: 'edit', input: { path: 'src/greeting.ts', oldString: '"hello"', newString: '"hello, world"' } },
        { id: `${prefix}-call-bash`, toolId: 'bash', input: { command: 'npm test', timeout: 30 } },
      ],
      metadata: { model: 'example-model', inputTokens: 1200, outputTokens: 80 },
    },
    {
      id: `${prefix}-tool-edit`,
      role: 'tool',
      toolCallId: `${prefix}-call-edit`,
      toolId: 'edit',
      result: ToolResult.success('Edited src/greeting.ts:1-1 (+1 -1)', {
        artifacts: [
          {
            kind: 'file_change',
            change: {
              changeId: `${prefix}-call-edit`,
              path: 'src/greeting.ts',
              kind: 'modified',
              additions: 1,
              deletions: 1,
              hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${before.trimEnd()}`, `+${after.trimEnd()}`] }],
              beforeHash: 'f1a8e0b2c2a3d1b7c5e4f6a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9',
              afterHash: '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
              beforeContent: before,
              afterContent: after,
              undone: false,
            },
          },
        ],
      }),
    },
    {
      id: `${prefix}-tool-bash`,
      role: 'tool',
      toolCallId: `${prefix}-call-bash`,
      toolId: 'bash',
      result: ToolResult.failure({ code: 'timeout', message: 'Command timed out after 30s.\nTests: 41 passed — 🙂 ünïcödé' }),
    },
    { id: `${prefix}-closing`, role: 'assistant', text: 'The greeting is updated; the test run timed out.' },
  ];
}
