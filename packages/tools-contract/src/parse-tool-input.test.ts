import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, MAX_RESULT_BYTES, ToolRegistryBuilder, ToolResult } from './index.js';
import { callContext } from './test-support/call-context.js';

const grant = z.strictObject({ path: z.string(), access: z.enum(['read', 'write']), scope: z.enum(['exact', 'subtree']) });
const editTool = defineTool({
  id: 'edit',
  description: 'Replace text in a file.',
  risk: 'workspace_mutation',
  inputSchema: z.strictObject({
    filePath: z.string(),
    oldString: z.string(),
    newString: z.string(),
    replaceAll: z.boolean().default(false),
    sandboxPermissions: z.strictObject({ paths: z.array(grant).min(1).max(16) }).optional(),
  }),
  execute: (input) => `edited ${input.filePath}`,
});
const listTool = defineTool({
  id: 'list',
  description: 'List a directory.',
  risk: 'read_only',
  inputSchema: z.object({ path: z.string().default('.'), limit: z.number().int().min(1).max(2000).default(200) }),
  execute: (input) => `listed ${input.path} (${input.limit})`,
});
const toolset = new ToolRegistryBuilder().register(editTool).register(listTool).finalize({ tools: ['edit', 'list'] }, undefined);

async function text(toolId: string, rawInput: unknown): Promise<string> {
  const result = await toolset.call(toolId, rawInput, callContext());
  if (result.status !== 'succeeded') {
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('invalid_arguments');
    expect(result.error?.message).toBe(ToolResult.text(result));
  }
  return ToolResult.text(result);
}

const RETRY_EDIT = 'Fix the arguments to match the input schema of "edit" and call it again.';

describe('invalid tool input (§2 adapter)', () => {
  it('invalid_input_bad_json says the arguments are not JSON and what to send', async () => {
    expect(await text('edit', '{"filePath": "a.ts", oldString: }')).toMatch(
      /^invalid tool input: the arguments are not valid JSON \(.+\)\. Send the arguments of "edit" as one JSON object\.$/,
    );
    expect(await text('edit', '[1, 2]')).toBe(`invalid tool input: expected a JSON object of named arguments, received an array. ${RETRY_EDIT}`);
    expect(await text('edit', 'null')).toBe(`invalid tool input: expected a JSON object of named arguments, received null. ${RETRY_EDIT}`);
    expect(await text('edit', 42)).toBe(`invalid tool input: expected a JSON object of named arguments, received a number (42). ${RETRY_EDIT}`);
  });

  it('invalid_input_missing_field names each missing field and its type', async () => {
    expect(await text('edit', '{"filePath":"a.ts","oldString":"x"}')).toBe(
      `invalid tool input: newString: missing required field (expected string). ${RETRY_EDIT}`,
    );
    expect(await text('edit', '{}')).toBe(
      'invalid tool input: filePath: missing required field (expected string); oldString: missing required field (expected string); ' +
        `newString: missing required field (expected string). ${RETRY_EDIT}`,
    );
  });

  it('invalid_input_wrong_type names the field, the expected and the received type', async () => {
    expect(await text('edit', { filePath: 'a.ts', oldString: 'x', newString: 7, replaceAll: 'yes' })).toBe(
      `invalid tool input: newString: expected string, received a number (7); replaceAll: expected boolean, received a string ("yes"). ${RETRY_EDIT}`,
    );
    expect(
      await text('edit', {
        filePath: 'a.ts',
        oldString: 'x',
        newString: 'y',
        sandboxPermissions: { paths: [{ path: '/x', access: 'execute', scope: 'exact' }] },
      }),
    ).toBe(`invalid tool input: sandboxPermissions.paths[0].access: Invalid option: expected one of "read"|"write". ${RETRY_EDIT}`);
    expect(await text('list', { limit: 0 })).toMatch(/^invalid tool input: limit: Too small: expected number to be >=1\. /);
    expect(await text('list', { path: null })).toMatch(/^invalid tool input: path: expected string, received null\. /);
  });

  it('invalid_input_unknown_field is rejected by strict schemas, with the path of nested fields', async () => {
    expect(await text('edit', { filePath: 'a.ts', oldString: 'x', newString: 'y', replace_all: true })).toBe(
      `invalid tool input: unknown field "replace_all" (remove it). ${RETRY_EDIT}`,
    );
    expect(
      await text('edit', {
        filePath: 'a.ts',
        oldString: 'x',
        newString: 'y',
        sandboxPermissions: { paths: [{ path: '/x', access: 'read', scope: 'exact', why: 1, mode: 2 }] },
      }),
    ).toBe(`invalid tool input: sandboxPermissions.paths[0]: unknown fields "why", "mode" (remove them). ${RETRY_EDIT}`);
    // A non-strict schema strips unknown fields, as zod does.
    expect(await text('list', { path: 'src', recursive: true })).toBe('listed src (200)');
  });

  it('blank arguments count as an empty object, so defaults apply', async () => {
    expect(await text('list', '')).toBe('listed . (200)');
    expect(await text('list', '  \n')).toBe('listed . (200)');
    expect(await text('list', '{}')).toBe('listed . (200)');
  });

  it('shows at most eight problems and counts the rest', async () => {
    const wide = defineTool({
      id: 'wide',
      description: 'Many fields.',
      risk: 'read_only',
      inputSchema: z.strictObject(Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`field${index}`, z.string()]))),
      execute: () => 'ok',
    });
    const result = await new ToolRegistryBuilder().register(wide).finalize({ tools: ['wide'] }, undefined).call('wide', '{}', callContext());
    const message = ToolResult.text(result);
    expect(message.match(/missing required field/g)).toHaveLength(8);
    expect(message).toContain('; and 4 more problems. Fix the arguments');
  });
});

describe('results that echo what the model sent stay bounded (§8.2: no result over 32,000 bytes)', () => {
  const encoder = new TextEncoder();
  const bytesOf = (text: string): number => encoder.encode(text).length;
  const strict = defineTool({
    id: 'strict',
    description: 'A strict tool.',
    risk: 'read_only',
    inputSchema: z.strictObject({ path: z.string(), tags: z.record(z.string(), z.number()).optional() }),
    execute: () => 'ok',
  });
  const toolset = new ToolRegistryBuilder().register(strict).finalize({ tools: ['strict'] }, undefined);

  it('thousands of unknown fields, or huge field names, give a short invalid_arguments from prepare', () => {
    const many: Record<string, unknown> = { path: 'a' };
    for (let index = 0; index < 5_000; index++) many[`unknown_field_${index}`] = index;
    const flood = toolset.prepare('strict', many);
    const floodText = !flood.ok ? ToolResult.text(flood.result) : '';
    expect(floodText).toMatch(/^invalid tool input: unknown fields "unknown_field_0", .*"unknown_field_7" and 4992 more \(remove them\)\. /);
    expect(bytesOf(floodText)).toBeLessThan(2_000);

    const longKey = 'k'.repeat(100_000);
    const long = toolset.prepare('strict', { path: 'a', [longKey]: 1 });
    const longText = !long.ok ? ToolResult.text(long.result) : '';
    expect(longText).toMatch(/^invalid tool input: unknown field "k+…" \(remove it\)\. /);
    expect(bytesOf(longText)).toBeLessThan(2_000);

    const nested = toolset.prepare('strict', { path: 'a', tags: { [longKey]: 'not a number' } });
    const nestedText = !nested.ok ? ToolResult.text(nested.result) : '';
    expect(nestedText).toMatch(/^invalid tool input: tags\["k+…"\]: expected number, received a string \("not a number"\)\. /);
    expect(bytesOf(nestedText)).toBeLessThan(2_000);
    expect(bytesOf(nestedText)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  });

  it('a refinement message that echoes a huge input is shortened', () => {
    const echoing = defineTool({
      id: 'echoing',
      description: 'Its refinement quotes the input.',
      risk: 'read_only',
      inputSchema: z.object({ path: z.string().refine((path) => !path.includes('\0'), { error: (issue) => `bad path ${String(issue.input)}` }) }),
      execute: () => 'ok',
    });
    const echoingToolset = new ToolRegistryBuilder().register(echoing).finalize({ tools: ['echoing'] }, undefined);
    const prepared = echoingToolset.prepare('echoing', { path: `${'p'.repeat(100_000)}\0` });
    const text = !prepared.ok ? ToolResult.text(prepared.result) : '';
    expect(text).toMatch(/^invalid tool input: path: bad path p+…\. Fix the arguments/);
    expect(bytesOf(text)).toBeLessThan(4_000);
  });
});
