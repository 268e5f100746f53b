import type { DangerousCommandRule } from './command-analysis.js';

/** A rule's verdict on one command, before the analysis attaches the command's text. */
export interface RuleMatch {
  readonly rule: DangerousCommandRule;
  readonly reason: string;
}
