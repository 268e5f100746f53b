import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './bash-limits.js';

/**
 * The timeout a call runs with (§5 "bash 的超时取 timeoutMs 与 deadline 剩余时间中较小的值"), and
 * which of the two set it — the recovery hint of a timeout depends on it: a larger `timeoutMs`
 * helps only when the deadline was not the limit.
 */
export type EffectiveTimeout =
  | { readonly kind: 'run'; readonly timeoutMs: number; readonly limitedBy: 'timeoutMs' | 'deadline' }
  /** The call's deadline had already passed: nothing is started. */
  | { readonly kind: 'expired'; readonly requestedMs: number };

/** §7.9 "取值被限制在 1–…" (the upper bound raised to 600,000, docs/decisions/0028-bash-choices-where-the-spec-is-silent.md): whole milliseconds, clamped (never refused). */
export function clampTimeout(requestedMs: number): number {
  if (Number.isNaN(requestedMs)) return MIN_TIMEOUT_MS;
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(requestedMs)));
}

/**
 * min(clamped `timeoutMs`, time left until `deadline`) at `now` (epoch ms). A deadline that leaves
 * less than one millisecond means the call is already out of time.
 */
export function effectiveTimeout(requestedMs: number, deadline: number | undefined, now: number): EffectiveTimeout {
  const clamped = clampTimeout(requestedMs);
  if (deadline === undefined) return { kind: 'run', timeoutMs: clamped, limitedBy: 'timeoutMs' };
  const left = Math.floor(deadline - now);
  if (left < MIN_TIMEOUT_MS) return { kind: 'expired', requestedMs: clamped };
  return left < clamped ? { kind: 'run', timeoutMs: left, limitedBy: 'deadline' } : { kind: 'run', timeoutMs: clamped, limitedBy: 'timeoutMs' };
}
