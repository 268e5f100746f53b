import type { SandboxPolicy } from '@openwork/sandbox';
import { MAX_PLAN_STEPS, MAX_PLAN_TEXT, hasSessionStoreErrorCode, type SessionPlan } from '@openwork/session-store';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ControlContext } from './control-context.js';

/** The id of core's plan tool (spec §3). */
export const UPDATE_PLAN_TOOL_ID = 'update_plan';

const inputSchema = z.strictObject({
  explanation: z.string().max(MAX_PLAN_TEXT).optional().describe('Why the plan changed, in a sentence'),
  plan: z
    .array(
      z.strictObject({
        step: z.string().min(1).max(MAX_PLAN_TEXT).describe('What this step does, in a few words'),
        status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress (at most one step) or completed'),
      }),
    )
    .max(MAX_PLAN_STEPS)
    .describe(`The whole plan, in order, at most ${MAX_PLAN_STEPS} steps; it replaces the previous one`),
});

/**
 * `update_plan` (spec §3): replaces the session's plan — at most 50 steps, at most one
 * `in_progress` — stores it with the session and publishes `plan_updated`. The result repeats the
 * plan briefly so the model sees what was kept.
 */
export function updatePlanTool() {
  return defineTool<typeof inputSchema, ControlContext, SandboxPolicy>({
    id: UPDATE_PLAN_TOOL_ID,
    description:
      `Keep a short plan of the task and update it as you go: send the whole plan each time (at most ${MAX_PLAN_STEPS} steps), each step pending, in_progress or completed, with at most one step in_progress. ` +
      'Use it for work of several steps; skip it for a single quick action. The user sees the plan.',
    risk: 'read_only',
    inputSchema,
    async execute(input, session) {
      let plan: SessionPlan;
      try {
        plan = await session.setPlan({ ...(input.explanation === undefined ? {} : { explanation: input.explanation }), plan: input.plan });
      } catch (error) {
        if (hasSessionStoreErrorCode(error, 'invalid_record')) return new ToolExecutionError('invalid_arguments', `The plan was not changed: ${error.message}.`);
        throw error;
      }
      return renderPlan(plan);
    },
  });
}

function renderPlan(plan: SessionPlan): string {
  if (plan.plan.length === 0) return 'Plan cleared.';
  const done = plan.plan.filter((item) => item.status === 'completed').length;
  const marks = { completed: '[x]', in_progress: '[>]', pending: '[ ]' } as const;
  const lines = plan.plan.map((item) => `${marks[item.status]} ${item.step}`);
  return `Plan updated: ${done} of ${plan.plan.length} steps completed.\n${lines.join('\n')}`;
}
