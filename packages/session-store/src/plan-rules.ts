import { checkColumnText, describeValue } from './check-record-id.js';
import { InvalidRecordError } from './invalid-record-error.js';
import { MAX_PLAN_STEPS, MAX_PLAN_TEXT, PLAN_STEP_STATUSES, type NewSessionPlan, type PlanStep, type SessionPlan } from './session-plan.js';
import { StoreCorruptError } from './store-corrupt-error.js';

/**
 * The rules of a plan (spec §3 `update_plan`), once for every store: at most 50 steps, each a
 * non-empty text of at most 2,000 characters with a known status, and at most one `in_progress`.
 */
export const PlanRules = Object.freeze({
  prepare(sessionId: string, input: NewSessionPlan, timestamp: string): SessionPlan {
    if (typeof input !== 'object' || input === null) throw new InvalidRecordError(`a plan must be { explanation?, plan: [{ step, status }] }, got ${describeValue(input)}`);
    if (!Array.isArray(input.plan)) throw new InvalidRecordError(`plan must be a list of { step, status }, got ${describeValue(input.plan)}`);
    if (input.plan.length > MAX_PLAN_STEPS) {
      throw new InvalidRecordError(`the plan has ${input.plan.length} steps; at most ${MAX_PLAN_STEPS} are allowed — merge small steps into larger ones`);
    }
    const plan = input.plan.map((item: PlanStep, index): PlanStep => {
      if (typeof item !== 'object' || item === null) throw new InvalidRecordError(`plan[${index}] must be { step, status }`);
      const step = checkColumnText(item.step, `plan[${index}].step`).trim();
      if (step === '') throw new InvalidRecordError(`plan[${index}].step is empty; describe the step in a few words`);
      if (step.length > MAX_PLAN_TEXT) throw new InvalidRecordError(`plan[${index}].step is ${step.length} characters long; the limit is ${MAX_PLAN_TEXT}`);
      if (!PLAN_STEP_STATUSES.includes(item.status)) {
        throw new InvalidRecordError(`plan[${index}].status is ${describeValue(item.status)}; use pending, in_progress or completed`);
      }
      return Object.freeze({ step, status: item.status });
    });
    const inProgress = plan.filter((item) => item.status === 'in_progress').length;
    if (inProgress > 1) {
      throw new InvalidRecordError(`${inProgress} steps are in_progress; at most one step may be in_progress at a time — mark the others pending or completed`);
    }
    let explanation: string | null = null;
    if (input.explanation !== undefined) {
      explanation = checkColumnText(input.explanation, 'explanation');
      if (explanation.length > MAX_PLAN_TEXT) throw new InvalidRecordError(`explanation is ${explanation.length} characters long; the limit is ${MAX_PLAN_TEXT}`);
    }
    return Object.freeze({ sessionId, explanation, plan: Object.freeze(plan), updatedAt: timestamp });
  },

  /** The JSON text a store keeps for a plan (without the session id and time, kept in columns). */
  encode(plan: SessionPlan): string {
    return JSON.stringify({ explanation: plan.explanation, plan: plan.plan });
  },

  decode(sessionId: string, body: string, updatedAt: string): SessionPlan {
    let value: { explanation: string | null; plan: PlanStep[] };
    try {
      value = JSON.parse(body) as typeof value;
    } catch (error) {
      throw new StoreCorruptError(`the plan of session ${JSON.stringify(sessionId)} is not valid JSON`, { cause: error });
    }
    if (!Array.isArray(value?.plan)) throw new StoreCorruptError(`the plan of session ${JSON.stringify(sessionId)} has no list of steps`);
    return Object.freeze({ sessionId, explanation: value.explanation ?? null, plan: Object.freeze(value.plan.map((step) => Object.freeze({ ...step }))), updatedAt });
  },
});
