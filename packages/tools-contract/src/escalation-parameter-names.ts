/**
 * The escalation parameters of `write`, `edit` and `bash` (§7.5). When the host finalizes with
 * `escalationAvailable: false` (no kernel sandbox), these properties disappear from every schema
 * and calls that send them are rejected (acceptance 10f).
 */
export const ESCALATION_PARAMETER_NAMES: readonly string[] = Object.freeze(['sandboxPermissions', 'justification']);
