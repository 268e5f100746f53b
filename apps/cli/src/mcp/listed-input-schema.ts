/**
 * An input schema as `tools/list` sends it: the tool's own JSON Schema without bounds that say
 * nothing (`"maximum": 9007199254740991`, the largest safe integer, which zod adds to every
 * `.int()`). Everything else — descriptions, defaults, enums, `additionalProperties: false` — is
 * kept; the tool validates its input against its own schema whatever the client sends.
 */
export function listedInputSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(listedInputSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const listed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    listed[key] = listedInputSchema(value);
  }
  return listed;
}
