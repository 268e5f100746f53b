import * as z from 'zod';
import { shortenForMessage } from './shorten-for-message.js';
import type { ToolInputSchema } from './tool.js';
import type { ToolId } from './tool-id.js';

/**
 * The outcome of checking a raw input against a tool's schema: the input, or the code and text of
 * the result to return instead (`invalid_arguments`; `execution_failed` when the schema itself
 * throws, a bug of the tool rather than of the call).
 */
export type ParsedToolInput =
  | { readonly ok: true; readonly input: unknown }
  | { readonly ok: false; readonly code: 'invalid_arguments' | 'execution_failed'; readonly message: string };

const MOST_ISSUES_SHOWN = 8;
/** Field names, key names and tool IDs quoted from the call are cut to this many code points. */
const LONGEST_QUOTED_NAME = 80;
/** One problem's text (a refinement message may quote the input) is cut to this many code points. */
const LONGEST_PROBLEM = 500;

/**
 * The adapter's first step (§2): raw arguments → the tool's typed input, or the text of an
 * `invalid_arguments` result. The text starts with `invalid tool input:`, names each field (as a
 * path like `paths[0].access`) with its problem, and ends with what to do next.
 *
 * `rawInput` is JSON text (as models send it; blank text counts as `{}`) or an already parsed
 * value (as MCP clients send it). `rejectedFields` are top-level fields refused whatever the
 * schema says (escalation parameters when no sandbox is available, §7.5).
 */
export function parseToolInput(
  toolId: ToolId,
  schema: ToolInputSchema,
  rawInput: unknown,
  rejectedFields: readonly { name: string; reason: string }[],
): ParsedToolInput {
  const retry = `Fix the arguments to match the input schema of "${toolId}" and call it again.`;
  let value = rawInput;
  if (typeof rawInput === 'string') {
    if (rawInput.trim() === '') {
      value = {};
    } else {
      try {
        value = JSON.parse(rawInput);
      } catch (error) {
        const reason = shortenForMessage(error instanceof Error ? error.message : String(error), LONGEST_PROBLEM);
        return {
          ok: false,
          code: 'invalid_arguments',
          message: `invalid tool input: the arguments are not valid JSON (${reason}). Send the arguments of "${toolId}" as one JSON object.`,
        };
      }
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      code: 'invalid_arguments',
      message: `invalid tool input: expected a JSON object of named arguments, received ${describeValue(value)}. ${retry}`,
    };
  }

  const problems: string[] = [];
  for (const field of rejectedFields) {
    if (Object.hasOwn(value, field.name)) problems.push(`${field.name}: ${field.reason}`);
  }
  if (problems.length > 0) return { ok: false, code: 'invalid_arguments', message: `invalid tool input: ${problems.join('; ')}. ${retry}` };

  let parsed: ReturnType<typeof z.safeParse>;
  try {
    parsed = z.safeParse(schema, value);
  } catch (error) {
    // A refinement or transform that throws, or one that is asynchronous (zod then refuses to
    // parse synchronously): the tool's schema is broken, not the model's call.
    return { ok: false, code: 'execution_failed', message: `${toolId} could not check its input: ${describeError(error)}` };
  }
  if (parsed.success) return { ok: true, input: parsed.data };
  for (const issue of parsed.error.issues) problems.push(shortenForMessage(describeIssue(issue, value), LONGEST_PROBLEM));
  const shown = problems.slice(0, MOST_ISSUES_SHOWN);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more problems` : '';
  return { ok: false, code: 'invalid_arguments', message: `invalid tool input: ${shown.join('; ')}${more}. ${retry}` };
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const path = formatPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const location = locate(input, issue.path);
      if (location.parentIsObject && !location.present) {
        return `${path}: missing required field (expected ${issue.expected})`;
      }
      return `${path}: expected ${issue.expected}, received ${describeValue(location.value)}`;
    }
    case 'unrecognized_keys': {
      const shown = issue.keys.slice(0, MOST_ISSUES_SHOWN).map((key) => JSON.stringify(shortenForMessage(key, LONGEST_QUOTED_NAME)));
      const more = issue.keys.length > shown.length ? ` and ${issue.keys.length - shown.length} more` : '';
      const prefix = issue.path.length === 0 ? '' : `${path}: `;
      return `${prefix}unknown field${issue.keys.length === 1 ? '' : 's'} ${shown.join(', ')}${more} (remove ${issue.keys.length === 1 ? 'it' : 'them'})`;
    }
    default:
      return `${path}: ${issue.message}`;
  }
}

/** `a.b[0].c`, or `(input)` for the whole input. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(input)';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && segment.length <= LONGEST_QUOTED_NAME && /^[A-Za-z_$][\w$]*$/.test(segment)) {
      text += text === '' ? segment : `.${segment}`;
    }
    else text += `[${JSON.stringify(shortenForMessage(String(segment), LONGEST_QUOTED_NAME))}]`;
  }
  return text;
}

function locate(input: unknown, path: readonly PropertyKey[]): { value: unknown; present: boolean; parentIsObject: boolean } {
  let current: unknown = input;
  let parentIsObject = false;
  let present = true;
  for (const segment of path) {
    parentIsObject = typeof current === 'object' && current !== null && !Array.isArray(current);
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      return { value: undefined, present: false, parentIsObject };
    }
    current = (current as Record<PropertyKey, unknown>)[segment];
    present = true;
  }
  return { value: current, present, parentIsObject };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `a string (${JSON.stringify(shortenForMessage(value, 40))})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `a ${typeof value} (${String(value)})`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return shortenForMessage(error.message === '' ? error.name : error.message, LONGEST_PROBLEM);
  try {
    return shortenForMessage(String(error), LONGEST_PROBLEM);
  } catch {
    return 'an unprintable value was thrown';
  }
}
