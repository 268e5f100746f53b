import type { JsonSchema, JsonValue } from './json-schema.js';

/**
 * A copy of an object schema without the top-level properties `names` (§7.5: the escalation
 * parameters when no sandbox is available): they leave `properties` and `required`, and every
 * `$defs`/`definitions` entry that only they referenced (directly or through other definitions)
 * goes too. Definitions still referenced by what remains are kept.
 */
export function removeSchemaProperties(schema: JsonSchema, names: readonly string[]): JsonSchema {
  const properties = asObject(schema['properties']);
  if (properties === undefined || !names.some((name) => Object.hasOwn(properties, name))) return schema;

  const result: Record<string, JsonValue> = { ...schema };
  result['properties'] = Object.fromEntries(Object.entries(properties).filter(([name]) => !names.includes(name)));
  const required = schema['required'];
  if (Array.isArray(required)) {
    const kept = required.filter((name) => typeof name !== 'string' || !names.includes(name));
    if (kept.length > 0) result['required'] = kept;
    else delete result['required'];
  }

  for (const keyword of ['$defs', 'definitions'] as const) {
    const definitions = asObject(schema[keyword]);
    if (definitions === undefined) continue;
    const before = reachableDefinitions(schema, keyword);
    const after = reachableDefinitions(result, keyword);
    const kept = Object.fromEntries(
      Object.entries(definitions).filter(([name]) => !(before.has(name) && !after.has(name))),
    );
    if (Object.keys(kept).length > 0) result[keyword] = kept;
    else delete result[keyword];
  }
  return result;
}

/** Names of `keyword` definitions reachable from the schema outside the definitions themselves. */
function reachableDefinitions(schema: JsonSchema, keyword: '$defs' | 'definitions'): Set<string> {
  const definitions = asObject(schema[keyword]) ?? {};
  const reached = new Set<string>();
  const pending: JsonValue[] = Object.entries(schema)
    .filter(([key]) => key !== keyword)
    .map(([, value]) => value);
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = definitionName(value, keyword);
          if (name !== undefined && !reached.has(name) && Object.hasOwn(definitions, name)) {
            reached.add(name);
            const definition = definitions[name];
            if (definition !== undefined) pending.push(definition);
          }
        } else {
          pending.push(value);
        }
      }
    }
  }
  return reached;
}

/** `#/$defs/Name` → `Name` (JSON Pointer and URI escapes undone). */
function definitionName(reference: string, keyword: string): string | undefined {
  const prefix = `#/${keyword}/`;
  if (!reference.startsWith(prefix)) return undefined;
  const token = reference.slice(prefix.length);
  if (token.includes('/')) return undefined;
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not URI-encoded: use the token as it is.
  }
  return decoded.replaceAll('~1', '/').replaceAll('~0', '~');
}

function asObject(value: JsonValue | undefined): { readonly [key: string]: JsonValue } | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { readonly [key: string]: JsonValue }) : undefined;
}
