import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILTIN_AGENT_TOOLS, builtinTools } from '@openwork/builtins';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { UPDATE_PLAN_TOOL_ID } from '../control/update-plan-tool.js';
import { CONVERSATION_HISTORY_TOOL_ID } from '../history/conversation-history-tool.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import { agentRoleTools } from './agent-role.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

const provided = new Set(builtinTools().map((tool) => tool.id));

describe('agent roles (§3, architecture §4)', () => {
  it('the_explorer_exposes_only_the_read_only_role_surface', async () => {
    const machine = await fixture();
    const explorer = await machine.session({ role: 'explorer' });
    // The explorer's tools are exactly builtins' explorer list (as far as builtins provides it), in
    // order, then core's control tools (§3: update_plan; no sub-agent tools without agentModels).
    expect(explorer.toolIds).toEqual([...BUILTIN_AGENT_TOOLS.explorer.filter((id) => provided.has(id)), UPDATE_PLAN_TOOL_ID]);
    expect(explorer.definitions.map((definition) => definition.id)).toEqual(explorer.toolIds);
    for (const id of ['write', 'edit', CONVERSATION_HISTORY_TOOL_ID]) expect(explorer.toolIds).not.toContain(id);
    expect(explorer.definitions.filter((definition) => definition.riskHint === 'workspace_mutation')).toEqual([]);

    // A call outside the surface is neither shown nor run: tool_not_found, and the model goes on.
    await writeFile(join(machine.workspace, 'notes.txt'), 'kept\n');
    const model = new ScriptedModel([
      [callTool('call_1', 'write', { path: 'notes.txt', content: 'overwritten' }), callTool('call_2', 'edit', { filePath: 'notes.txt', oldString: 'kept', newString: 'gone' })],
      [callTool('call_3', 'read', { path: 'notes.txt' })],
      [say('done')],
    ]);
    const outcome = await explorer.runTurn({ input: 'change notes.txt', model });
    expect(outcome.status).toBe('completed');
    expect(await readFile(join(machine.workspace, 'notes.txt'), 'utf8')).toBe('kept\n');
    const results = outcome.messages.flatMap((message) => (message.role === 'tool' ? [message.result] : []));
    expect(results.map((result) => result.error?.code ?? result.status)).toEqual(['tool_not_found', 'tool_not_found', 'succeeded']);
    expect(ToolResult.text(results[2]!)).toBe('1\tkept');
    // The model was never shown write or edit.
    expect(model.requests.every((request) => request.tools.every((tool) => !['write', 'edit'].includes(tool.id)))).toBe(true);
  });

  it('the default role is the builtins default list plus conversation_history, then the control tools', async () => {
    const machine = await fixture();
    const session = await machine.session();
    expect(session.toolIds).toEqual([...BUILTIN_AGENT_TOOLS.default.filter((id) => provided.has(id)), CONVERSATION_HISTORY_TOOL_ID, UPDATE_PLAN_TOOL_ID]);
    expect(session.toolIds).toEqual([...agentRoleTools('default'), UPDATE_PLAN_TOOL_ID]);
    expect(session.toolIds).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'list']));
    const history = session.definitions.find((definition) => definition.id === CONVERSATION_HISTORY_TOOL_ID);
    expect(history?.riskHint).toBe('read_only');
  });

  it('changing the role rebuilds the toolset over the same observation table', async () => {
    const machine = await fixture();
    await writeFile(join(machine.workspace, 'a.txt'), 'one\n');
    const session = await machine.session({ role: 'explorer' });
    const observations = session.observations;
    expect((await session.callTool('read', { path: 'a.txt' })).result.status).toBe('succeeded');
    await session.update({ role: 'default' });
    expect(session.toolIds).toContain('edit');
    expect(session.observations).toBe(observations);
    // The read made under the explorer's toolset still counts (§7.4): no new read needed.
    const edit = await session.callTool('edit', { filePath: 'a.txt', oldString: 'one', newString: 'two' });
    expect(ToolResult.text(edit.result)).toBe('Edited a.txt:1 (+1 -1)');
    expect((await machine.store.getSession(session.id))?.agentRole).toBe('default');
  });
});
