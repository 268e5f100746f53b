import type { SpillSink } from './spill-sink.js';

/** How a toolset is finalized beyond the selection and the session. */
export interface FinalizeOptions {
  /**
   * Where the fallback cut saves oversized results (§8.2). Without one, oversized results are
   * still cut, and the footer says the full output was not saved.
   */
  readonly spill?: SpillSink;
  /**
   * `false` when the session has no working kernel sandbox (§7.5, acceptance 10f): the escalation
   * parameters (`ESCALATION_PARAMETER_NAMES`) and definitions only they reference are removed
   * from every schema, and calls that send them get `invalid_arguments`. Default `true`.
   */
  readonly escalationAvailable?: boolean;
}
