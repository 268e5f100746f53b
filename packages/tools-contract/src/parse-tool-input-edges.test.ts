import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, ToolRegistryBuilder, ToolResult } from './index.js';
import { callContext } from './test-support/call-context.js';

/** The text of the result of preparing `tool` (whose schema is `schema`) with `rawInput`. */
function problemsOf(schema: z.ZodType, rawInput: unknown, options: { escalationAvailable?: boolean } = {}): string {
  const tool = defineTool({ id: 'probe', description: 'A probe.', risk: 'read_only', inputSchema: schema as z.ZodObject, execute: () => 'ran' });
  const prepared = new ToolRegistryBuilder().register(tool).finalize({ tools: ['probe'] }, undefined, options).prepare('probe', rawInput);
  if (prepared.ok) throw new Error('expected the input to be refused');
  return ToolResult.text(prepared.result);
}

const RETRY = 'Fix the arguments to match the input schema of "probe" and call it again.';

describe('invalid tool input: how fields and values are named (§2 adapter)', () => {
  it('a problem with the input as a whole is named (input)', () => {
    const schema = z.strictObject({ from: z.number(), to: z.number() }).refine((input) => input.from <= input.to, 'from must not be after to');
    expect(problemsOf(schema, { from: 2, to: 1 })).toBe(`invalid tool input: (input): from must not be after to. ${RETRY}`);
  });

  it('field names that are not identifiers are quoted; identifiers up to 80 characters are dotted', () => {
    const names = ['1st', 'a-b', 'has space', 'x'.repeat(80), 'y'.repeat(81)];
    const schema = z.strictObject({ options: z.strictObject(Object.fromEntries(names.map((name) => [name, z.string()]))) });
    const options = Object.fromEntries(names.map((name) => [name, 1]));
    const shortened = `${'y'.repeat(80)}…`;
    expect(problemsOf(schema, { options })).toBe(
      'invalid tool input: ' +
        [
          'options["1st"]: expected string, received a number (1)',
          'options["a-b"]: expected string, received a number (1)',
          'options["has space"]: expected string, received a number (1)',
          `options.${'x'.repeat(80)}: expected string, received a number (1)`,
          `options["${shortened}"]: expected string, received a number (1)`,
        ].join('; ') +
        `. ${RETRY}`,
    );
  });

  it('a missing element of a list is "received nothing", not a missing field', () => {
    // Only a host passing a JavaScript value can send a list with a hole; JSON cannot.
    const schema = z.strictObject({ names: z.array(z.string()) });
    // eslint-disable-next-line no-sparse-arrays
    expect(problemsOf(schema, { names: [, 'b'] })).toBe(`invalid tool input: names[0]: expected string, received nothing. ${RETRY}`);
    // A missing field of an object inside a list is a missing field.
    const listed = z.strictObject({ items: z.array(z.strictObject({ name: z.string() })) });
    expect(problemsOf(listed, { items: [{}] })).toBe(`invalid tool input: items[0].name: missing required field (expected string). ${RETRY}`);
  });

  it('each kind of received value is described', () => {
    const schema = z.strictObject({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() });
    expect(problemsOf(schema, { a: true, b: { x: 1 }, c: [1], d: null, e: () => 'a function' })).toBe(
      'invalid tool input: ' +
        [
          'a: expected string, received a boolean (true)',
          'b: expected string, received an object',
          'c: expected string, received an array',
          'd: expected string, received null',
          'e: expected string, received function',
        ].join('; ') +
        `. ${RETRY}`,
    );
  });

  it('every escalation parameter sent without a sandbox is named, one after the other', () => {
    const schema = z.strictObject({ path: z.string(), sandboxPermissions: z.unknown().optional(), justification: z.string().optional() });
    const text = problemsOf(schema, { path: 'a', sandboxPermissions: {}, justification: 'why' }, { escalationAvailable: false });
    const reasons = /^invalid tool input: sandboxPermissions: (.+); justification: (.+)\. Fix the arguments/.exec(text);
    expect(reasons, text).not.toBeNull();
    expect(reasons?.[1]).toBe(reasons?.[2]);
    expect(reasons?.[1]).toMatch(/^not accepted in this session because no sandbox is available/);
  });
});

describe('a schema that throws is the tool\'s bug: execution_failed naming what was thrown', () => {
  async function thrownBy(thrown: unknown): Promise<string> {
    const schema = z.strictObject({ path: z.string() }).superRefine(() => {
      throw thrown;
    });
    const tool = defineTool({ id: 'broken', description: 'Broken schema.', risk: 'read_only', inputSchema: schema, execute: () => 'ran' });
    const result = await new ToolRegistryBuilder().register(tool).finalize({ tools: ['broken'] }, undefined).call('broken', { path: 'a' }, callContext());
    expect(result.error?.code).toBe('execution_failed');
    return ToolResult.text(result);
  }

  it('an Error by its message, or by its name when the message is empty', async () => {
    expect(await thrownBy(new RangeError('index out of range'))).toBe('broken could not check its input: index out of range');
    expect(await thrownBy(new TypeError(''))).toBe('broken could not check its input: TypeError');
  });

  it('anything else by its text, or says it cannot be printed', async () => {
    expect(await thrownBy('a plain string')).toBe('broken could not check its input: a plain string');
    expect(await thrownBy(42)).toBe('broken could not check its input: 42');
    expect(await thrownBy(Object.create(null))).toBe('broken could not check its input: an unprintable value was thrown');
  });
});
