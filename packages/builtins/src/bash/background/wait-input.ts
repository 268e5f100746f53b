import * as z from 'zod';
import { MAX_WAIT_MS } from './background-limits.js';

/** A bounded wait in whole milliseconds: values outside 0–30,000 are clamped, never refused (like bash's timeoutMs). */
export function clampWait(ms: number): number {
  if (Number.isNaN(ms)) return 0;
  return Math.min(MAX_WAIT_MS, Math.max(0, Math.round(ms)));
}

/** The schema of a task id: `bg-` and six hex digits, as `bash` reports it. */
export const taskIdSchema = z.string().min(1).describe('The id of a background task, as bash reported it (task <id>).');
