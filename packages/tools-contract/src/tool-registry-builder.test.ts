import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, type Tool, ToolRegistryBuilder, ToolResult, ToolsContractError, ToolsetConfigurationError } from './index.js';
import { callContext } from './test-support/call-context.js';

function tool(id: string, overrides: Partial<Tool> = {}): Tool {
  return defineTool({
    id,
    description: `The ${id} tool.`,
    risk: 'read_only',
    inputSchema: z.strictObject({ path: z.string() }),
    execute: () => 'ok',
    ...overrides,
  } as Tool);
}

function rejection(run: () => unknown): ToolsetConfigurationError {
  try {
    run();
  } catch (error) {
    expect(ToolsetConfigurationError.isInstance(error)).toBe(true);
    expect(ToolsContractError.isInstance(error)).toBe(true);
    return error as ToolsetConfigurationError;
  }
  throw new Error('finalize did not throw');
}

describe('finalize rejects bad registrations and selections (§3)', () => {
  it('finalize_rejects_blank_ids', () => {
    for (const id of ['', '   ', '\t\n']) {
      const error = rejection(() => new ToolRegistryBuilder().register(tool('read')).register(tool(id)).finalize({ tools: ['read'] }, undefined));
      expect(error.problems).toEqual(['blank_id']);
      expect(error.message).toContain('registered tool #2 (description "The');
      expect(error.message).toContain('has a blank id; give every tool an explicit, non-blank ToolId');
    }
    const selection = rejection(() => new ToolRegistryBuilder().register(tool('read')).finalize({ tools: ['read', ' '] }, undefined));
    expect(selection.problems).toEqual(['blank_id']);
    expect(selection.message).toContain('ToolsetConfig.tools[1] is blank; list the IDs of registered tools only.');
  });

  it('finalize_rejects_blank_descriptions', () => {
    const error = rejection(() =>
      new ToolRegistryBuilder().register(tool('read', { description: ' \n ' })).finalize({ tools: [] }, undefined),
    );
    expect(error.problems).toEqual(['blank_description']);
    expect(error.message).toBe(
      'Cannot finalize the toolset (1 problem):\n- tool "read" has a blank description; describe what it does and when the model should use it.',
    );
  });

  it('finalize_rejects_duplicate_registrations even when the tool is not selected', () => {
    const builder = new ToolRegistryBuilder().register(tool('read')).register(tool('grep')).register(tool('read'));
    const error = rejection(() => builder.finalize({ tools: ['grep'] }, undefined));
    expect(error.problems).toEqual(['duplicate_registration']);
    expect(error.message).toContain('tool "read" is registered 2 times; register each tool once');
  });

  it('finalize_rejects_duplicate_selections', () => {
    const builder = new ToolRegistryBuilder().register(tool('read')).register(tool('grep'));
    const error = rejection(() => builder.finalize({ tools: ['read', 'grep', 'read', 'read'] }, undefined));
    expect(error.problems).toEqual(['duplicate_selection']);
    expect(error.message).toBe(
      'Cannot finalize the toolset (1 problem):\n- ToolsetConfig.tools selects "read" more than once; list each tool once.',
    );
  });

  it('finalize_rejects_unknown_selections and names the registered tools', () => {
    const builder = new ToolRegistryBuilder().register(tool('read')).register(tool('grep'));
    const error = rejection(() => builder.finalize({ tools: ['read', 'bash'] }, undefined));
    expect(error.problems).toEqual(['unknown_selection']);
    expect(error.message).toContain(
      'ToolsetConfig.tools selects "bash", which is not registered (registered: read, grep); register it or remove it from the selection.',
    );
    // Case matters: IDs are exact.
    expect(rejection(() => builder.finalize({ tools: ['Read'] }, undefined)).problems).toEqual(['unknown_selection']);
  });

  it('finalize reports every problem at once', () => {
    const builder = new ToolRegistryBuilder()
      .register(tool(''))
      .register(tool('read', { description: '' }))
      .register(tool('grep'))
      .register(tool('grep'));
    const error = rejection(() => builder.finalize({ tools: ['read', 'list', 'list'] }, undefined));
    expect(error.problems).toEqual(['blank_id', 'blank_description', 'duplicate_registration', 'unknown_selection', 'duplicate_selection']);
    expect(error.message).toMatch(/^Cannot finalize the toolset \(5 problems\):\n- /);
    // Selecting a tool whose registration is broken is reported once, as the registration problem.
    expect(error.message).not.toContain('selects "read", which is not registered');
  });

  it('finalize rejects tools the contract cannot advertise or run', () => {
    const cases: [Tool, RegExp][] = [
      [tool('read', { risk: 'dangerous' as never }), /risk "dangerous"; use one of read_only, workspace_mutation, process_execution/],
      [tool('read', { inputSchema: { type: 'object' } as never }), /has no zod inputSchema/],
      [tool('read', { execute: undefined as never }), /needs an execute function/],
      [tool('read', { inspect: 'read_only' as never }), /inspect, if given, must be a function/],
      [tool('read', { inputSchema: z.string() }), /is not an object schema; model APIs take named arguments/],
      [tool('read', { inputSchema: z.object({ when: z.date() }) }), /cannot be expressed as JSON Schema/],
      [tool('read', { inputSchema: z.object({ justification: z.string() }) }), /makes justification required; escalation parameters must be optional/],
      [tool(' read'), /whitespace around its id; use "read"/],
    ];
    for (const [broken, message] of cases) {
      const error = rejection(() => new ToolRegistryBuilder().register(broken).finalize({ tools: [broken.id] }, undefined));
      expect(error.problems).toEqual(['invalid_tool']);
      expect(error.message).toMatch(message);
    }
  });

  it('finalize rejects a config that is not { tools: [...] }', () => {
    const builder = new ToolRegistryBuilder().register(tool('read'));
    expect(rejection(() => builder.finalize({ tools: 'read' } as never, undefined)).problems).toEqual(['invalid_config']);
    expect(rejection(() => builder.finalize(null as never, undefined)).problems).toEqual(['invalid_config']);
  });

  it('an empty selection is a valid, empty toolset', async () => {
    const toolset = new ToolRegistryBuilder().register(tool('read')).finalize({ tools: [] }, undefined);
    expect(toolset.definitions).toEqual([]);
    const result = await toolset.call('read', '{}', { callId: 'c', signal: new AbortController().signal, sandboxPolicy: undefined });
    expect(result.error?.message).toBe('Tool "read" is not available in this toolset. Available tools: none. Call one of those instead.');
  });

  it('one registry finalizes many toolsets and lists what it holds', () => {
    const builder = new ToolRegistryBuilder().register(tool('read')).register(tool('bash', { risk: 'process_execution' }));
    expect(builder.registeredIds).toEqual(['read', 'bash']);
    const explorer = builder.finalize({ tools: ['read'] }, undefined);
    const full = builder.finalize({ tools: ['bash', 'read'] }, undefined);
    expect(explorer.toolIds).toEqual(['read']);
    expect(full.toolIds).toEqual(['bash', 'read']);
    expect(full.definitions[0]?.riskHint).toBe('process_execution');
  });

  it('a class-based tool keeps its prototype methods, getters and private state', async () => {
    class CounterTool implements Tool<z.ZodObject<{ step: z.ZodNumber }>, unknown, unknown> {
      #count = 0;
      readonly id = 'counter';
      readonly risk = 'read_only' as const;
      readonly inputSchema = z.strictObject({ step: z.number() });
      get description(): string {
        return 'Count up by step.';
      }
      inspect(): never {
        throw new Error(`inspected with count ${this.#count}`);
      }
      execute(input: { step: number }): string {
        this.#count += input.step;
        return `count ${this.#count}`;
      }
    }
    const tool = new CounterTool();
    const toolset = new ToolRegistryBuilder().register(tool).finalize({ tools: ['counter'] }, undefined);
    expect(toolset.definitions[0]?.description).toBe('Count up by step.');
    expect(ToolResult.text(await toolset.call('counter', { step: 2 }, callContext()))).toBe('count 2');
    expect(ToolResult.text(await toolset.call('counter', { step: 3 }, callContext()))).toBe('count 5');
    const prepared = toolset.prepare('counter', { step: 1 });
    expect(!prepared.ok && ToolResult.text(prepared.result)).toBe('counter could not inspect the call: inspected with count 5');
  });
});
