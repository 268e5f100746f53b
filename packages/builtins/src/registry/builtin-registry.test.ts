import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { BUILTIN_AGENT_TOOLS } from './builtin-agent.js';
import { builtinRegistry, builtinToolsetConfig } from './builtin-registry.js';
import { builtinTools } from './builtin-tools.js';

const fixtures: BuiltinsFixture[] = [];
async function fixtureWith(...args: Parameters<typeof createFixture>): Promise<BuiltinsFixture> {
  const fixture = await createFixture(...args);
  fixtures.push(fixture);
  return fixture;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

const specOrder = ['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash'];
/** Background bash: the background tools come after the spec's seven, which keep their §3 order. */
const registryOrder = [...specOrder, 'bash_output', 'bash_input', 'bash_kill'];

describe('builtinRegistry (§3)', () => {
  it('builtin_registry_exposes_each_tool_once_in_selected_order', async () => {
    const registered = builtinRegistry().registeredIds;
    expect(new Set(registered).size).toBe(registered.length);
    // The fixed order is the spec's, for every tool this package provides.
    expect(registered).toEqual(registryOrder.filter((id) => registered.includes(id)));
    expect(registered).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'list', 'bash', 'bash_output', 'bash_input', 'bash_kill']));
    const fixture = await fixtureWith();
    // Definitions come out in the order of the selection, not of the registry.
    const reversed = builtinRegistry().finalize({ tools: ['list', 'edit', 'read'] }, fixture.session);
    expect(reversed.definitions.map((definition) => definition.id)).toEqual(['list', 'edit', 'read']);
    expect(fixture.toolset.toolIds).toEqual(builtinToolsetConfig('default').tools);
  });

  it('the_explorer_exposes_only_the_read_only_role_surface: the default and explorer selections follow §3', async () => {
    expect(BUILTIN_AGENT_TOOLS.default).toEqual(registryOrder);
    expect(BUILTIN_AGENT_TOOLS.default.slice(0, 7)).toEqual(specOrder);
    // Background bash: the explorer's background tools reach only the tasks it started (background-explorer.test.ts).
    expect(BUILTIN_AGENT_TOOLS.explorer).toEqual(['read', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_input', 'bash_kill']);
    const provided = builtinTools().map((tool) => tool.id);
    expect(builtinToolsetConfig('explorer').tools).toEqual(BUILTIN_AGENT_TOOLS.explorer.filter((id) => provided.includes(id)));
    const explorer = await fixtureWith({ agent: 'explorer' });
    expect(explorer.toolset.toolIds).not.toContain('write');
    // bash closes the spec's tools of both roles (§3); the background tools follow it.
    expect(explorer.toolset.toolIds.slice(-4)).toEqual(['bash', 'bash_output', 'bash_input', 'bash_kill']);
    expect(builtinToolsetConfig('default').tools.slice(-4)).toEqual(['bash', 'bash_output', 'bash_input', 'bash_kill']);
    expect(explorer.toolset.toolIds).not.toContain('edit');
    // A tool outside the toolset is neither shown nor run (acceptance 4).
    const write = await explorer.call('write', { path: 'x.txt', content: 'x' });
    expect(write.error?.code).toBe('tool_not_found');
    await writeFile(join(explorer.workspace, 'x.txt'), 'kept');
    expect(await explorer.text('read', { path: 'x.txt' })).toBe('1\tkept');
  });

  it('escalation_parameters_disappear_when_the_sandbox_is_unavailable', async () => {
    // The fixture's sandbox is unavailable; the toolset asks its self-check.
    const unavailable = await fixtureWith({ escalationAvailable: 'self-check' });
    expect(unavailable.toolset.escalationAvailable).toBe(false);
    for (const id of ['write', 'edit', 'bash']) {
      const schema = unavailable.toolset.definition(id)?.inputSchema as { properties: Record<string, unknown> };
      expect(Object.keys(schema.properties)).not.toContain('sandboxPermissions');
      expect(Object.keys(schema.properties)).not.toContain('justification');
    }
    const sent = await unavailable.call('write', {
      path: 'a.txt',
      content: 'x',
      sandboxPermissions: { paths: [{ path: '/etc/x', access: 'write', scope: 'exact' }] },
      justification: 'because',
    });
    expect(sent.error?.code).toBe('invalid_arguments');

    // With a working sandbox, write and edit carry both, read and list never do.
    const available = await fixtureWith({ escalationAvailable: true });
    for (const id of ['write', 'edit', 'bash']) {
      const schema = available.toolset.definition(id)?.inputSchema as { properties: Record<string, { properties?: Record<string, { maxItems?: number; minItems?: number }> }> };
      expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['sandboxPermissions', 'justification']));
      expect(schema.properties['sandboxPermissions']?.properties?.['paths']).toMatchObject({ minItems: 1, maxItems: 16 });
    }
    for (const id of ['read', 'list']) {
      const schema = available.toolset.definition(id)?.inputSchema as { properties: Record<string, unknown> };
      expect(Object.keys(schema.properties)).not.toContain('sandboxPermissions');
    }
  });

  it('escalation parameters are validated with the sandbox schemas and reported by prepare', async () => {
    const fixture = await fixtureWith();
    const target = join(fixture.outside, 'out.txt');
    const prepared = fixture.toolset.prepare('write', {
      path: target,
      content: 'x',
      sandboxPermissions: { paths: [{ path: '../outside/./out.txt', access: 'write', scope: 'exact' }] },
      justification: 'Write the report where the user asked',
    });
    expect(prepared.ok && prepared.call.inspection).toEqual({
      kind: 'writes',
      target,
      escalation: { paths: [{ path: target, access: 'write', scope: 'exact' }], justification: 'Write the report where the user asked' },
    });
    const noReason = await fixture.call('write', { path: target, content: 'x', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] } });
    expect(noReason.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(noReason)).toContain('justification: must be a non-empty sentence');
    for (const paths of [[], Array(17).fill({ path: target, access: 'write', scope: 'exact' }), [{ path: target, access: 'write', scope: 'exact', extra: 1 }], [{ path: target, access: 'execute', scope: 'exact' }]]) {
      const bad = await fixture.call('edit', { filePath: target, oldString: '', newString: 'x', sandboxPermissions: { paths }, justification: 'j' });
      expect(bad.error?.code).toBe('invalid_arguments');
    }
    // The request alone grants nothing: core stamps approved grants into the call's policy.
    const unapproved = await fixture.call('write', { path: target, content: 'x', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: 'j' });
    expect(unapproved.status).toBe('denied');
  });

  it('prepare reports a hard-protected write target, and never for an ordinary one', async () => {
    const fixture = await fixtureWith();
    const spillFile = join(fixture.openworkHome, 'spill', 'session-1', 'call.txt');
    for (const [tool, input] of [
      ['write', { path: spillFile, content: 'x' }],
      ['edit', { filePath: '.openwork/settings.json', oldString: '', newString: '{}' }],
      ['write', { path: '~/.openwork/db.sqlite', content: 'x' }],
    ] as const) {
      const prepared = fixture.toolset.prepare(tool, input);
      expect(prepared.ok && prepared.call.inspection.protectedTarget).toMatch(/^Permission denied: .* is protected and cannot be changed by tools\.$/);
    }
    const ordinary = fixture.toolset.prepare('write', { path: 'src/a.ts', content: 'x' });
    expect(ordinary.ok && ordinary.call.inspection).toEqual({ kind: 'writes', target: 'src/a.ts' });
    const read = fixture.toolset.prepare('read', { path: spillFile });
    expect(read.ok && read.call.inspection).toEqual({ kind: 'read_only' });
  });
});
