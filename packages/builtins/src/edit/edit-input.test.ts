import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

const fixtures: BuiltinsFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

type Schema = { readonly [key: string]: unknown };

/** Every schema node, with its depth in nested objects (the root object is depth 1). */
function nodes(schema: Schema, depth = 1): { node: Schema; depth: number }[] {
  const found = [{ node: schema, depth }];
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  for (const property of Object.values(properties)) found.push(...nodes(property, property['type'] === 'object' ? depth + 1 : depth));
  const items = schema['items'] as Schema | undefined;
  if (items !== undefined) found.push(...nodes(items, items['type'] === 'object' ? depth + 1 : depth));
  return found;
}

// What the providers accept, checked against their documentation and issue trackers: Anthropic
// refuses `oneOf`/`anyOf`/`allOf` at the top of `input_schema` ("input_schema does not support
// oneOf, allOf, or anyOf at the top level"); OpenAI wants a root `type: "object"` and `items` on
// every array ("array schema missing items"), and its strict mode wants closed objects; Gemini
// refuses `anyOf` next to other keys. A flat object with no combinators anywhere passes them all.
const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$ref', '$defs', 'definitions', 'prefixItems', 'patternProperties'];

describe('the JSON Schema of edit stays small and plain', () => {
  for (const escalationAvailable of [true, false]) {
    it(`is one flat object with no unions or references anywhere (escalation parameters ${escalationAvailable ? 'present' : 'removed'})`, async () => {
      const fixture = await createFixture({ escalationAvailable });
      fixtures.push(fixture);
      const definition = fixture.toolset.definition('edit');
      const schema = definition?.inputSchema as Schema;
      expect(schema['type']).toBe('object');
      expect(schema['required']).toEqual(['filePath']);
      for (const { node, depth } of nodes(schema)) {
        for (const keyword of COMBINATORS) expect(node).not.toHaveProperty(keyword);
        expect(depth).toBeLessThanOrEqual(3);
        if (node['type'] === 'array') expect(node['items']).toMatchObject({ type: expect.any(String) });
        if (node['type'] === 'object') expect(node['additionalProperties']).toBe(false);
        expect(typeof node['type']).toBe('string');
      }
      const properties = schema['properties'] as Record<string, Schema>;
      expect(Object.keys(properties)).toEqual(['filePath', 'oldString', 'newString', 'replaceAll', 'edits', ...(escalationAvailable ? ['sandboxPermissions', 'justification'] : [])]);
      expect(properties['edits']).toMatchObject({
        type: 'array',
        minItems: 1,
        maxItems: 64,
        items: { type: 'object', required: ['oldString', 'newString'], additionalProperties: false },
      });
      expect(Object.keys((properties['edits']?.['items'] as Schema)['properties'] as Schema)).toEqual(['oldString', 'newString', 'replaceAll']);
      for (const property of Object.values(properties)) expect(typeof property['description']).toBe('string');
      // Both forms are explained where the model reads first.
      expect(definition?.description).toContain('Send oldString and newString for one replacement, or edits');
      expect(JSON.stringify(schema).length).toBeLessThan(escalationAvailable ? 3200 : 2200);
    });
  }
});
