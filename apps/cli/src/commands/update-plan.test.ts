import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

// update_plan through the built executable (sub-agents): listed by `openwork tools`, run by `openwork call`.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => sandbox.remove());

const run = (argv: string[]) => runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace });

describe('openwork and update_plan', () => {
  it('tools lists update_plan after the role\'s tools, and call update_plan answers with the plan', async () => {
    const tools = await run(['tools']);
    expect(tools.stdout).toMatch(/conversation_history \(read_only\)\n.*\nupdate_plan \(read_only\)\n/);
    expect(tools.stdout).not.toContain('agent_send');
    // Why there are no sub-agent tools is said in --help, not on every run (docs/decisions/0093).
    expect(tools.stderr).toBe('');
    expect((await run(['tools', '--help'])).stdout).toContain('The sub-agent tools (agent_send, agent_await, agent_list) need a model for the child agents');
    const plan = JSON.stringify({ plan: [{ step: 'read', status: 'completed' }, { step: 'fix', status: 'in_progress' }] });
    expect(await run(['call', 'update_plan', plan])).toMatchObject({ status: 0, stdout: 'Plan updated: 1 of 2 steps completed.\n[x] read\n[>] fix\n' });
    const refused = await run(['call', 'update_plan', JSON.stringify({ plan: [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }] })]);
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('at most one step may be in_progress at a time');
  });
});
