import * as z from 'zod';
import type { ToolInputSchema } from './tool.js';
import type { ToolId } from './tool-id.js';

/** The outcome of checking a raw input against a tool's schema. */
export type ParsedToolInput = { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly message: string };

const MOST_ISSUES_SHOWN = 8;

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
        const reason = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          message: `invalid tool input: the arguments are not valid JSON (${reason}). Send the arguments of "${toolId}" as one JSON object.`,
        };
      }
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: `invalid tool input: expected a JSON object of named arguments, received ${describeValue(value)}. ${retry}`,
    };
  }

  const problems: string[] = [];
  for (const field of rejectedFields) {
    if (Object.hasOwn(value, field.name)) problems.push(`${field.name}: ${field.reason}`);
  }
  if (problems.length > 0) return { ok: false, message: `invalid tool input: ${problems.join('; ')}. ${retry}` };

  const parsed = z.safeParse(schema, value);
  if (parsed.success) return { ok: true, input: parsed.data };
  for (const issue of parsed.error.issues) problems.push(describeIssue(issue, value));
  const shown = problems.slice(0, MOST_ISSUES_SHOWN);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more problems` : '';
  return { ok: false, message: `invalid tool input: ${shown.join('; ')}${more}. ${retry}` };
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
      const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
      const prefix = issue.path.length === 0 ? '' : `${path}: `;
      return `${prefix}unknown field${issue.keys.length === 1 ? '' : 's'} ${keys} (remove ${issue.keys.length === 1 ? 'it' : 'them'})`;
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
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
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
  if (typeof value === 'string') return value.length > 40 ? `a string ("${value.slice(0, 40)}…")` : `a string (${JSON.stringify(value)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `a ${typeof value} (${String(value)})`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}
