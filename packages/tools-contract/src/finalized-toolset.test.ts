import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  CallInspection,
  defineTool,
  FinalizedToolset,
  ToolCallContextError,
  ToolExecutionError,
  ToolRegistryBuilder,
  ToolResult,
  type ToolDefinition,
  type ToolErrorCode,
} from './index.js';
import { callContext } from './test-support/call-context.js';

interface Session {
  readonly name: string;
  readonly log: string[];
}

const readTool = defineTool({
  id: 'read',
  description: 'Read a file.',
  risk: 'read_only',
  inputSchema: z.strictObject({ path: z.string(), offset: z.number().int().min(0).default(1) }),
  execute: (input, session: Session) => {
    session.log.push(`read ${input.path}@${input.offset}`);
    return `contents of ${input.path} from line ${input.offset}`;
  },
});

const writeTool = defineTool({
  id: 'write',
  description: 'Write a file.',
  risk: 'workspace_mutation',
  inputSchema: z.strictObject({ path: z.string(), content: z.string() }),
  inspect: (input) => CallInspection.writes(input.path),
  execute: (input, session: Session) => {
    session.log.push(`write ${input.path}`);
    return { text: `Created ${input.path}`, artifacts: [{ kind: 'file_change', path: input.path }] };
  },
});

const bashTool = defineTool({
  id: 'bash',
  description: 'Run a command.',
  risk: 'process_execution',
  inputSchema: z.strictObject({ command: z.string() }),
  inspect: (input) => CallInspection.runs(input.command, { danger: input.command.includes('rm -rf /') ? 'recursive delete of /' : undefined }),
  execute: (input, session: Session) => {
    session.log.push(`bash ${input.command}`);
    return `ran ${input.command}`;
  },
});

function registry(): ToolRegistryBuilder<Session> {
  return new ToolRegistryBuilder<Session>().register(readTool).register(writeTool).register(bashTool);
}

function session(): Session {
  return { name: 'session-1', log: [] };
}

describe('FinalizedToolset (§3)', () => {
  it('acc_01 finalized_toolset_is_the_model_and_dispatch_subset', async () => {
    const bound = session();
    const toolset = registry().finalize({ tools: ['read', 'bash'] }, bound);

    expect(toolset.definitions.map((definition) => definition.id)).toEqual(['read', 'bash']);
    expect(toolset.toolIds).toEqual(['read', 'bash']);
    for (const id of toolset.toolIds) {
      expect(toolset.has(id)).toBe(true);
      expect(toolset.definition(id)).toBe(toolset.definitions.find((definition) => definition.id === id));
    }

    // Everything advertised dispatches; what is not advertised does not.
    const read = await toolset.call('read', '{"path":"a.txt"}', callContext());
    const bash = await toolset.call('bash', { command: 'ls' }, callContext());
    const write = await toolset.call('write', '{"path":"a.txt","content":"x"}', callContext());
    expect(read.status).toBe('succeeded');
    expect(bash.status).toBe('succeeded');
    expect(write.status).toBe('failed');
    expect(write.error?.code).toBe('tool_not_found');
    expect(toolset.has('write')).toBe(false);
    expect(toolset.definition('write')).toBeUndefined();
    expect(bound.log).toEqual(['read a.txt@1', 'bash ls']);
  });

  it('acc_02 a finalized toolset cannot add, remove or replace tools', async () => {
    const builder = registry();
    const config = { tools: ['read'] as string[] };
    const toolset = builder.finalize(config, session());
    const digest = toolset.digest;

    // No mutators on the surface.
    const surface = new Set<string>();
    for (let prototype: object | null = toolset; prototype !== null && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
      for (const name of Object.getOwnPropertyNames(prototype)) surface.add(name);
    }
    expect([...surface].sort()).toEqual(
      ['call', 'constructor', 'definition', 'definitions', 'digest', 'escalationAvailable', 'has', 'prepare', 'toolIds'].sort(),
    );

    // Frozen values: nothing can be pushed, spliced or overwritten.
    expect(Object.isFrozen(toolset)).toBe(true);
    expect(Object.isFrozen(FinalizedToolset.prototype)).toBe(true);
    expect(Object.isFrozen(toolset.definitions)).toBe(true);
    expect(Object.isFrozen(toolset.toolIds)).toBe(true);
    const definitions = toolset.definitions as ToolDefinition[];
    expect(() => definitions.push({ ...readTool, inputSchema: {}, riskHint: 'read_only' })).toThrow(TypeError);
    expect(() => definitions.splice(0, 1)).toThrow(TypeError);
    expect(() => {
      (definitions[0] as { description: string }).description = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      ((definitions[0]!.inputSchema as { properties: Record<string, unknown> }).properties)['extra'] = { type: 'string' };
    }).toThrow(TypeError);
    expect(() => {
      (toolset as unknown as { call: unknown }).call = async () => ToolResult.success('replaced');
    }).toThrow(TypeError);
    expect(() => {
      (FinalizedToolset.prototype as unknown as { call: unknown }).call = async () => ToolResult.success('replaced');
    }).toThrow(TypeError);
    expect(() => new (FinalizedToolset as unknown as new (...parts: unknown[]) => unknown)(Symbol('forged'), {})).toThrow(TypeError);

    // Later changes to the builder, the config or a tool object do not reach the toolset.
    const mutableTool = { ...readTool, id: 'late', execute: () => 'original' };
    builder.register(mutableTool);
    config.tools.push('write');
    mutableTool.execute = () => 'replaced';
    expect(toolset.toolIds).toEqual(['read']);
    expect((await toolset.call('write', { path: 'x', content: '' }, callContext())).error?.code).toBe('tool_not_found');
    expect(toolset.digest).toBe(digest);

    // register() took a snapshot: the change after registration reaches no toolset either.
    const second = builder.finalize({ tools: ['late'] }, session());
    expect(ToolResult.text(await second.call('late', { path: 'x' }, callContext()))).toBe('original');
  });

  it('acc_03 typed_input_drives_schema_and_validation', async () => {
    const toolset = registry().finalize({ tools: ['read'] }, session());
    const [definition] = toolset.definitions;
    // The advertised schema is the input side of the same zod schema: `offset` has a default, so it is optional.
    expect(definition?.inputSchema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
      },
      required: ['path'],
      additionalProperties: false,
    });
    expect(definition?.inputSchema).not.toHaveProperty('$schema');
    expect(definition?.inputSchema).not.toHaveProperty('title');

    // What the schema allows parses; what it forbids is rejected by the same schema.
    const ok = await toolset.call('read', '{"path":"a"}', callContext());
    expect(ToolResult.text(ok)).toBe('contents of a from line 1');
    const negative = await toolset.call('read', '{"path":"a","offset":-1}', callContext());
    expect(negative.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(negative)).toMatch(/^invalid tool input: offset: /);
    const extra = await toolset.call('read', '{"path":"a","limit":3}', callContext());
    expect(ToolResult.text(extra)).toMatch(/^invalid tool input: unknown field "limit"/);
  });

  it('acc_03 a titled schema loses only its top-level $schema and title', () => {
    const titled = defineTool({
      id: 'titled',
      description: 'A titled tool.',
      risk: 'read_only',
      inputSchema: z.object({ inner: z.string().meta({ title: 'Inner' }) }).meta({ title: 'Outer', description: 'kept' }),
      execute: () => 'ok',
    });
    const [definition] = new ToolRegistryBuilder().register(titled).finalize({ tools: ['titled'] }, undefined).definitions;
    expect(definition?.inputSchema).toEqual({
      type: 'object',
      description: 'kept',
      properties: { inner: { type: 'string', title: 'Inner' } },
      required: ['inner'],
    });
  });

  it('acc_04 a tool outside the toolset is neither advertised nor executed and returns tool_not_found', async () => {
    const bound = session();
    const toolset = registry().finalize({ tools: ['read'] }, bound);
    expect(JSON.stringify(toolset.definitions)).not.toContain('bash');

    const result = await toolset.call('bash', '{"command":"rm -rf /"}', callContext());
    expect(result).toEqual({
      status: 'failed',
      content: [{ type: 'text', text: 'Tool "bash" is not available in this toolset. Available tools: read. Call one of those instead.' }],
      artifacts: [],
      error: {
        code: 'tool_not_found',
        message: 'Tool "bash" is not available in this toolset. Available tools: read. Call one of those instead.',
        retryable: false,
      },
      sandboxDenied: false,
    });
    const prepared = toolset.prepare('bash', '{"command":"rm -rf /"}');
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.result.error?.code).toBe('tool_not_found');
    expect(bound.log).toEqual([]);

    // The turn continues: the next call works.
    expect((await toolset.call('read', '{"path":"b"}', callContext())).status).toBe('succeeded');
  });

  it('acc_04 a huge unknown tool name gives a short tool_not_found from call and prepare', async () => {
    const toolset = registry().finalize({ tools: ['read'] }, session());
    const name = 'x'.repeat(200_000);
    const called = await toolset.call(name, {}, callContext());
    const prepared = toolset.prepare(name, {});
    for (const result of [called, !prepared.ok ? prepared.result : undefined]) {
      expect(result?.error?.code).toBe('tool_not_found');
      const text = ToolResult.text(result!);
      expect(new TextEncoder().encode(text).length).toBeLessThan(1_000);
      expect(text).toMatch(/^Tool "x+…" is not available in this toolset\. Available tools: read\. Call one of those instead\.$/);
    }
  });

  it('acc_05 definition order equals ToolsetConfig order', () => {
    const builder = registry();
    const orders = [
      ['bash', 'read', 'write'],
      ['write', 'bash', 'read'],
      ['read', 'write', 'bash'],
    ];
    for (const tools of orders) {
      const first = builder.finalize({ tools }, session());
      const again = builder.finalize({ tools }, session());
      expect(first.definitions.map((definition) => definition.id)).toEqual(tools);
      expect(again.definitions).toEqual(first.definitions);
      expect(again.digest).toBe(first.digest);
    }
  });
});

describe('prepare (§6.1)', () => {
  it('returns the inspection of the tool, read_only by default, without running it', () => {
    const bound = session();
    const toolset = registry().finalize({ tools: ['read', 'write', 'bash'] }, bound);

    const read = toolset.prepare('read', '{"path":"a"}');
    expect(read).toEqual({ ok: true, call: { toolId: 'read', risk: 'read_only', input: { path: 'a', offset: 1 }, inspection: { kind: 'read_only' } } });
    const write = toolset.prepare('write', { path: 'src/a.ts', content: 'x' });
    expect(write.ok && write.call.inspection).toEqual({ kind: 'writes', target: 'src/a.ts' });
    const bash = toolset.prepare('bash', { command: 'rm -rf / --no-preserve-root' });
    expect(bash.ok && bash.call.inspection).toEqual({ kind: 'runs', command: 'rm -rf / --no-preserve-root', danger: 'recursive delete of /' });
    expect(bound.log).toEqual([]);
  });

  it('passes the bound session to inspect and carries extra facts such as protectedTarget and escalation', () => {
    const guarded = defineTool({
      id: 'guarded_write',
      description: 'Write, refusing protected paths.',
      risk: 'workspace_mutation',
      inputSchema: z.strictObject({ path: z.string(), justification: z.string().optional() }),
      inspect: (input, bound: Session) =>
        CallInspection.writes(input.path, {
          ...(input.path.startsWith('.openwork/') ? { protectedTarget: `Permission denied: ${input.path} is protected and cannot be changed by tools.` } : {}),
          ...(input.justification === undefined ? {} : { escalation: { justification: input.justification, session: bound.name } }),
        }),
      execute: () => 'written',
    });
    const toolset = new ToolRegistryBuilder<Session>().register(guarded).finalize({ tools: ['guarded_write'] }, session());
    const prepared = toolset.prepare('guarded_write', { path: '.openwork/config', justification: 'needed' });
    expect(prepared.ok && prepared.call.inspection).toEqual({
      kind: 'writes',
      target: '.openwork/config',
      protectedTarget: 'Permission denied: .openwork/config is protected and cannot be changed by tools.',
      escalation: { justification: 'needed', session: 'session-1' },
    });
    expect(prepared.ok && Object.isFrozen(prepared.call.inspection)).toBe(true);
  });

  it('turns bad input into invalid_arguments and a throwing or malformed inspect into execution_failed', () => {
    const broken = defineTool({
      id: 'broken',
      description: 'Inspect throws.',
      risk: 'read_only',
      inputSchema: z.object({ mode: z.enum(['throw', 'malformed']) }),
      inspect: (input) => {
        if (input.mode === 'throw') throw new Error('cannot inspect');
        return { kind: 'writes' } as unknown as CallInspection;
      },
      execute: () => 'never',
    });
    const toolset = registry().register(broken).finalize({ tools: ['read', 'broken'] }, session());
    const bad = toolset.prepare('read', '{"path":');
    expect(!bad.ok && bad.result.error?.code).toBe('invalid_arguments');
    const thrown = toolset.prepare('broken', { mode: 'throw' });
    expect(!thrown.ok && ToolResult.text(thrown.result)).toBe('broken could not inspect the call: cannot inspect');
    const malformed = toolset.prepare('broken', { mode: 'malformed' });
    expect(!malformed.ok && malformed.result.error?.code).toBe('execution_failed');
  });

  it('an inspect error that quotes a huge input is shortened, since prepare results are not cut', () => {
    const quoting = defineTool({
      id: 'quoting',
      description: 'Inspect quotes the input.',
      risk: 'workspace_mutation',
      inputSchema: z.object({ path: z.string() }),
      inspect: (input) => {
        throw new Error(`cannot resolve ${input.path}`);
      },
      execute: () => 'never',
    });
    const toolset = new ToolRegistryBuilder().register(quoting).finalize({ tools: ['quoting'] }, undefined);
    const prepared = toolset.prepare('quoting', { path: 'q'.repeat(200_000) });
    const text = !prepared.ok ? ToolResult.text(prepared.result) : '';
    expect(text).toMatch(/^quoting could not inspect the call: cannot resolve q+…$/);
    expect(text.length).toBeLessThan(2_100);
  });
});

describe('call: the adapter maps every outcome to a ToolResult (§2, §8.1)', () => {
  function toolsetOf(execute: (input: { mode: string }, bound: unknown, call: { signal: AbortSignal }) => unknown) {
    const tool = defineTool({
      id: 'probe',
      description: 'A probe.',
      risk: 'read_only',
      inputSchema: z.object({ mode: z.string() }),
      execute: execute as never,
    });
    return new ToolRegistryBuilder().register(tool).finalize({ tools: ['probe'] }, undefined);
  }

  it('passes the bound session and this call\'s context to execute', async () => {
    const seen: unknown[] = [];
    const policy = { mode: 'workspace-write', grants: [] };
    const tool = defineTool({
      id: 'context',
      description: 'Echo the context.',
      risk: 'read_only',
      inputSchema: z.object({}),
      execute: (_input, bound: Session, call: import('./index.js').ToolExecutionContext<typeof policy>) => {
        seen.push(bound, call.callId, call.deadline, call.sandboxPolicy, call.signal);
        return 'ok';
      },
    });
    const bound = session();
    const toolset = new ToolRegistryBuilder<Session, typeof policy>().register(tool).finalize({ tools: ['context'] }, bound);
    const controller = new AbortController();
    await toolset.call('context', '', { callId: 'toolu_42', signal: controller.signal, deadline: 1_700_000_000_000, sandboxPolicy: policy });
    expect(seen).toEqual([bound, 'toolu_42', 1_700_000_000_000, policy, controller.signal]);
  });

  it('a ToolExecutionError returned or thrown becomes a result whose text is its message', async () => {
    for (const how of ['return', 'throw']) {
      const toolset = toolsetOf(() => {
        const error = new ToolExecutionError('permission_denied', 'Permission denied: /etc/passwd is outside the writable roots.', {
          sandboxDenied: true,
        });
        if (how === 'throw') throw error;
        return error;
      });
      const result = await toolset.call('probe', { mode: how }, callContext());
      expect(result).toEqual({
        status: 'denied',
        content: [{ type: 'text', text: 'Permission denied: /etc/passwd is outside the writable roots.' }],
        artifacts: [],
        error: { code: 'permission_denied', message: 'Permission denied: /etc/passwd is outside the writable roots.', retryable: false },
        sandboxDenied: true,
      });
    }
    const timeout = await toolsetOf(() => {
      throw new ToolExecutionError('timeout', 'partial output\n[timed out after 10 ms; duration 12 ms]');
    }).call('probe', { mode: 'x' }, callContext());
    expect(timeout.status).toBe('failed');
    expect(timeout.error).toEqual({ code: 'timeout', message: 'partial output\n[timed out after 10 ms; duration 12 ms]', retryable: true });
  });

  it('an unexpected throw becomes execution_failed with the message and never crashes the toolset', async () => {
    const toolset = toolsetOf(async (input) => {
      if (input.mode === 'error') throw new RangeError('Invalid string length');
      if (input.mode === 'string') throw 'a thrown string';
      if (input.mode === 'invalid') return 42;
      if (input.mode === 'bad-artifact') return { text: 'x', artifacts: [{ path: 'no kind' }] };
      return 'fine';
    });
    const error = await toolset.call('probe', { mode: 'error' }, callContext());
    expect(error.status).toBe('failed');
    expect(error.error).toEqual({ code: 'execution_failed', message: 'probe failed unexpectedly: Invalid string length', retryable: false });
    expect(ToolResult.text(error)).toBe(error.error?.message);
    expect(ToolResult.text(await toolset.call('probe', { mode: 'string' }, callContext()))).toBe('probe failed unexpectedly: a thrown string');
    expect((await toolset.call('probe', { mode: 'invalid' }, callContext())).error?.code).toBe('execution_failed');
    expect((await toolset.call('probe', { mode: 'bad-artifact' }, callContext())).error?.code).toBe('execution_failed');
    expect(ToolResult.text(await toolset.call('probe', { mode: 'ok' }, callContext()))).toBe('fine');
  });

  it('a call whose signal is aborted at the end is cancelled, keeping its output and artifacts', async () => {
    const controller = new AbortController();
    const tool = defineTool({
      id: 'slow_write',
      description: 'Writes, then notices nothing.',
      risk: 'workspace_mutation',
      inputSchema: z.object({}),
      execute: async () => {
        controller.abort();
        return { text: 'Created a.txt (+1)', artifacts: [{ kind: 'file_change', path: 'a.txt' }] };
      },
    });
    const toolset = new ToolRegistryBuilder().register(tool).finalize({ tools: ['slow_write'] }, undefined);
    const result = await toolset.call('slow_write', {}, callContext({ signal: controller.signal }));
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('cancelled');
    expect(ToolResult.text(result)).toBe('The slow_write call was cancelled. Output before cancellation:\nCreated a.txt (+1)');
    expect(result.artifacts).toEqual([{ kind: 'file_change', path: 'a.txt' }]);
  });

  it('a call cancelled before it starts does not run; an AbortError thrown on abort is cancelled, not execution_failed', async () => {
    let runs = 0;
    const toolset = toolsetOf(async (_input, _bound, call) => {
      runs++;
      await new Promise((resolve, reject) => {
        call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
      });
      return 'unreachable';
    });
    const before = await toolset.call('probe', { mode: 'x' }, callContext({ signal: AbortSignal.abort() }));
    expect(before.status).toBe('cancelled');
    expect(runs).toBe(0);

    const controller = new AbortController();
    const running = toolset.call('probe', { mode: 'x' }, callContext({ signal: controller.signal }));
    await Promise.resolve();
    controller.abort();
    const during = await running;
    expect(runs).toBe(1);
    expect(during.status).toBe('cancelled');
    expect(during.error).toEqual({ code: 'cancelled', message: 'The probe call was cancelled.', retryable: false });
  });

  it('a broken call context is a host bug and throws ToolCallContextError', async () => {
    const toolset = registry().finalize({ tools: ['read'] }, session());
    await expect(toolset.call('read', '{}', callContext({ callId: '  ' }))).rejects.toSatisfy(ToolCallContextError.isInstance);
    await expect(toolset.call('read', '{}', { ...callContext(), signal: undefined as unknown as AbortSignal })).rejects.toThrow(
      /AbortSignal/,
    );
    await expect(toolset.call('read', '{}', callContext({ deadline: Number.NaN }))).rejects.toThrow(/deadline/);
  });

  it('an input schema whose refinement throws or is asynchronous gives execution_failed, not a rejected call', async () => {
    const throwing = defineTool({
      id: 'throwing',
      description: 'Its schema has a bug.',
      risk: 'read_only',
      inputSchema: z.object({
        path: z.string().refine(() => {
          throw new Error('refinement bug');
        }),
      }),
      execute: () => 'never',
    });
    const asynchronous = defineTool({
      id: 'asynchronous',
      description: 'Its schema needs async parsing.',
      risk: 'read_only',
      inputSchema: z.object({ path: z.string().refine(async () => true) }),
      execute: () => 'never',
    });
    const toolset = new ToolRegistryBuilder()
      .register(throwing)
      .register(asynchronous)
      .finalize({ tools: ['throwing', 'asynchronous'] }, undefined);

    const thrown = await toolset.call('throwing', { path: 'a' }, callContext());
    expect(thrown.error?.code).toBe('execution_failed');
    expect(ToolResult.text(thrown)).toBe('throwing could not check its input: refinement bug');
    const prepared = toolset.prepare('throwing', { path: 'a' });
    expect(!prepared.ok && prepared.result.error?.code).toBe('execution_failed');

    const async = await toolset.call('asynchronous', { path: 'a' }, callContext());
    expect(async.error?.code).toBe('execution_failed');
    expect(ToolResult.text(async)).toMatch(/^asynchronous could not check its input: /);
  });

  it('an error code outside §8.1 from a JavaScript tool becomes execution_failed with its message', async () => {
    const tool = defineTool({
      id: 'legacy',
      description: 'Uses a made-up code.',
      risk: 'read_only',
      inputSchema: z.object({}),
      execute: () => new ToolExecutionError('not_found' as ToolErrorCode, 'No such note: a. List the notes first.'),
    });
    const result = await new ToolRegistryBuilder().register(tool).finalize({ tools: ['legacy'] }, undefined).call('legacy', {}, callContext());
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({ code: 'execution_failed', message: 'No such note: a. List the notes first.', retryable: false });
  });
});

describe('the escalation parameters (§7.5, acceptance 10f)', () => {
  const paths = z
    .strictObject({
      paths: z
        .array(z.strictObject({ path: z.string(), access: z.enum(['read', 'write']), scope: z.enum(['exact', 'subtree']) }))
        .min(1)
        .max(16),
    })
    .meta({ id: 'TestSandboxPermissionsInput' });
  const access = z.enum(['ask', 'never']).meta({ id: 'TestSharedAccess' });
  const escalatingWrite = defineTool({
    id: 'write',
    description: 'Write a file.',
    risk: 'workspace_mutation',
    inputSchema: z.strictObject({
      path: z.string(),
      content: z.string(),
      mode: access.optional(),
      sandboxPermissions: paths.optional(),
      justification: z.string().min(1).optional(),
      fallback: access.optional(),
    }),
    execute: (input) => `wrote ${input.path}${input.sandboxPermissions === undefined ? '' : ' with a grant'}`,
  });

  it('escalation_parameters_disappear_when_the_sandbox_is_unavailable', async () => {
    const builder = new ToolRegistryBuilder().register(escalatingWrite);
    const available = builder.finalize({ tools: ['write'] }, undefined);
    const unavailable = builder.finalize({ tools: ['write'] }, undefined, { escalationAvailable: false });
    expect(available.escalationAvailable).toBe(true);
    expect(unavailable.escalationAvailable).toBe(false);

    const full = available.definitions[0]!.inputSchema as Record<string, Record<string, unknown>>;
    expect(Object.keys(full['properties']!)).toEqual(['path', 'content', 'mode', 'sandboxPermissions', 'justification', 'fallback']);
    expect(Object.keys(full['$defs']!).sort()).toEqual(['TestSandboxPermissionsInput', 'TestSharedAccess']);

    const stripped = unavailable.definitions[0]!.inputSchema;
    const text = JSON.stringify(stripped);
    expect(text).not.toContain('sandboxPermissions');
    expect(text).not.toContain('justification');
    expect(text).not.toContain('TestSandboxPermissionsInput');
    // A definition still used by another property stays.
    expect(stripped).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        content: { type: 'string' },
        mode: { $ref: '#/$defs/TestSharedAccess' },
        fallback: { $ref: '#/$defs/TestSharedAccess' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
      $defs: { TestSharedAccess: { type: 'string', enum: ['ask', 'never'] } },
    });
    expect(unavailable.digest).not.toBe(available.digest);

    // With a sandbox, a grant request parses; without one it is refused before the tool runs.
    const grant = {
      path: 'a.txt',
      content: 'x',
      sandboxPermissions: { paths: [{ path: '/outside/a.txt', access: 'write', scope: 'exact' }] },
      justification: 'the user asked for it',
    };
    expect(ToolResult.text(await available.call('write', grant, callContext()))).toBe('wrote a.txt with a grant');
    const refused = await unavailable.call('write', grant, callContext());
    expect(refused.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(refused)).toMatch(/^invalid tool input: sandboxPermissions: not accepted in this session because no sandbox is available/);
    expect(ToolResult.text(refused)).toContain('justification: not accepted');
    const prepared = unavailable.prepare('write', { path: 'a.txt', content: 'x', justification: 'x' });
    expect(prepared.ok).toBe(false);
    expect(ToolResult.text(await unavailable.call('write', { path: 'a.txt', content: 'x' }, callContext()))).toBe('wrote a.txt');
  });

  it('tools without escalation parameters are unchanged when the sandbox is unavailable', () => {
    const builder = registry();
    const available = builder.finalize({ tools: ['read', 'bash'] }, session());
    const unavailable = builder.finalize({ tools: ['read', 'bash'] }, session(), { escalationAvailable: false });
    expect(unavailable.definitions).toEqual(available.definitions);
    expect(unavailable.digest).toBe(available.digest);
  });
});

describe('digest (identity of a finalized toolset)', () => {
  it('digest_is_stable_across_runs: SHA-256 of the canonical JSON of the definitions, nothing run-dependent', () => {
    const tool = defineTool({
      id: 'read',
      description: 'Read a file.',
      risk: 'read_only',
      // Keys deliberately in another order than the canonical one.
      inputSchema: z.strictObject({ path: z.string() }),
      execute: () => 'x',
    });
    const digest = new ToolRegistryBuilder().register(tool).finalize({ tools: ['read'] }, undefined).digest;
    const canonical =
      '[{"description":"Read a file.","id":"read","inputSchema":{"additionalProperties":false,"properties":{"path":{"type":"string"}},' +
      '"required":["path"],"type":"object"},"riskHint":"read_only"}]';
    expect(digest).toBe(createHash('sha256').update(`openwork.toolset.v1\n${canonical}`).digest('hex'));
    // Pinned: the same definitions give this value in every run, on every machine.
    expect(digest).toBe('f4aecb1dd0c7696317427855821b3280fb4c2df8b78e92a1381290cc4f03c42b');
  });

  it('is the same for the same definitions and differs for any change in a definition or the order', () => {
    const digestOf = (tools: string[], builder = registry()) => builder.finalize({ tools }, session()).digest;
    const base = digestOf(['read', 'write']);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf(['read', 'write'])).toBe(base);
    // The session and the spill sink are not part of what the model sees.
    expect(registry().finalize({ tools: ['read', 'write'] }, { name: 'other', log: [] }, { spill: { save: async () => 'x' } }).digest).toBe(base);

    const changes = [
      digestOf(['write', 'read']),
      digestOf(['read']),
      digestOf(['read', 'write', 'bash']),
      digestOf(['read', 'write'], new ToolRegistryBuilder<Session>().register({ ...readTool, description: 'Read a file!' }).register(writeTool)),
      digestOf(['read', 'write'], new ToolRegistryBuilder<Session>().register({ ...readTool, risk: 'process_execution' }).register(writeTool)),
      digestOf(
        ['read', 'write'],
        new ToolRegistryBuilder<Session>()
          .register({ ...readTool, inputSchema: z.strictObject({ path: z.string(), offset: z.number().int().min(0).default(2) }) })
          .register(writeTool),
      ),
    ];
    expect(new Set([base, ...changes]).size).toBe(changes.length + 1);
  });
});
