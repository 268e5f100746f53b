import { hasMarker, ToolsContractError } from './tools-contract-error.js';

const MARKER = Symbol.for('openwork.tools-contract.error.ToolsetConfigurationError');

/** Why a registry or `ToolsetConfig` was rejected by `finalize` (§3). */
export type ToolsetConfigurationProblem =
  | 'blank_id'
  | 'blank_description'
  | 'invalid_tool'
  | 'duplicate_registration'
  | 'duplicate_selection'
  | 'unknown_selection'
  | 'invalid_config';

/**
 * A programmer mistake in the registered tools or the selection (§3): blank IDs or descriptions,
 * duplicate registrations or selections, selecting an unregistered tool, an input schema that is
 * not a JSON object. Every problem found is listed, each with what to do about it.
 */
export class ToolsetConfigurationError extends ToolsContractError {
  private readonly [MARKER] = true;
  /** The distinct kinds of problems found, in the order first found. */
  readonly problems: readonly ToolsetConfigurationProblem[];

  constructor(problems: readonly { problem: ToolsetConfigurationProblem; message: string }[]) {
    const lines = problems.map((entry) => `- ${entry.message}`);
    super(`Cannot finalize the toolset (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ToolsetConfigurationError';
    this.problems = Object.freeze([...new Set(problems.map((entry) => entry.problem))]);
  }

  static override isInstance(error: unknown): error is ToolsetConfigurationError {
    return hasMarker(error, MARKER);
  }
}
