import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './json-schema.js';
import { removeSchemaProperties } from './remove-schema-properties.js';

describe('removeSchemaProperties (§7.5)', () => {
  const names = ['sandboxPermissions', 'justification'];

  it('removes the properties, their required entries and the definitions only they reach', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        command: { type: 'string' },
        sandboxPermissions: { $ref: '#/$defs/SandboxPermissionsInput' },
        justification: { type: 'string' },
      },
      required: ['command', 'justification'],
      additionalProperties: false,
      $defs: {
        SandboxPermissionsInput: { type: 'object', properties: { paths: { type: 'array', items: { $ref: '#/$defs/PathGrant' } } } },
        PathGrant: { type: 'object', properties: { access: { $ref: '#/$defs/Access' } } },
        Access: { enum: ['read', 'write'] },
        Unused: { type: 'string' },
      },
    };
    expect(removeSchemaProperties(schema, names)).toEqual({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
      additionalProperties: false,
      // Unused was never referenced: not "only referenced by" the removed properties, so it stays.
      $defs: { Unused: { type: 'string' } },
    });
    // The input is not modified.
    expect(Object.keys(schema['properties'] as object)).toHaveLength(3);
  });

  it('keeps definitions still reachable from other properties, also through other definitions and escaped names', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        sandboxPermissions: { $ref: '#/$defs/Grant~1Set' },
        mode: { anyOf: [{ $ref: '#/$defs/Mode' }, { type: 'null' }] },
      },
      $defs: {
        'Grant/Set': { type: 'array', items: { $ref: '#/$defs/Mode' } },
        Mode: { $ref: '#/$defs/ModeName' },
        ModeName: { type: 'string' },
      },
      definitions: { Legacy: { type: 'string' } },
    };
    expect(removeSchemaProperties(schema, names)).toEqual({
      type: 'object',
      properties: { mode: { anyOf: [{ $ref: '#/$defs/Mode' }, { type: 'null' }] } },
      $defs: { Mode: { $ref: '#/$defs/ModeName' }, ModeName: { type: 'string' } },
      definitions: { Legacy: { type: 'string' } },
    });
  });

  it('drops an emptied required list and returns the same schema when there is nothing to remove', () => {
    const only: JsonSchema = { type: 'object', properties: { justification: { type: 'string' } }, required: ['justification'] };
    expect(removeSchemaProperties(only, names)).toEqual({ type: 'object', properties: {} });
    const untouched: JsonSchema = { type: 'object', properties: { path: { type: 'string' } } };
    expect(removeSchemaProperties(untouched, names)).toBe(untouched);
  });
});
