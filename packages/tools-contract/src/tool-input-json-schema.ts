import * as z from 'zod';
import type { JsonSchema } from './json-schema.js';
import type { ToolInputSchema } from './tool.js';

/**
 * The model-facing JSON Schema of a tool input (§2, architecture §2): generated from the same zod
 * schema that validates calls, for the input side (`io: 'input'`, so fields with defaults are
 * optional), without `$schema` and `title`. Throws what zod throws for unrepresentable schemas.
 */
export function toolInputJsonSchema(schema: ToolInputSchema): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: 'input' }) as Record<string, JsonSchema[string]>;
  const { $schema: _dialect, title: _title, ...rest } = generated;
  return rest;
}
