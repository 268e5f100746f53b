/** A step's status in a plan (spec §3 `update_plan`). */
export type PlanStepStatus = 'pending' | 'in_progress' | 'completed';

export const PLAN_STEP_STATUSES: readonly PlanStepStatus[] = Object.freeze(['pending', 'in_progress', 'completed']);

/** At most this many steps in a plan. */
export const MAX_PLAN_STEPS = 50;
/** At most this many characters in a step or the explanation. */
export const MAX_PLAN_TEXT = 2000;

export interface PlanStep {
  readonly step: string;
  readonly status: PlanStepStatus;
}

/** Input of `setPlan`. */
export interface NewSessionPlan {
  readonly explanation?: string;
  readonly plan: readonly PlanStep[];
}

/** The plan as stored with its session; the last `update_plan` wins. */
export interface SessionPlan {
  readonly sessionId: string;
  readonly explanation: string | null;
  readonly plan: readonly PlanStep[];
  readonly updatedAt: string;
}
