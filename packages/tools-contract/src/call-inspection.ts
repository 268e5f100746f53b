/**
 * Extra facts a tool's `inspect` may report before a call runs (§6.1), e.g. `protectedTarget`
 * (the rule-denial text when a write target is hard-protected), `danger` (dangerous-command
 * analysis) or `escalation` (the normalised `sandboxPermissions` request).
 *
 * The contract does not know the shapes of `danger` or `escalation`: they belong to higher
 * layers, which may narrow them by module augmentation of this interface.
 */
export interface CallFacts {
  /** §6.1: the denial text when the write target is hard-protected; the host denies without running. */
  readonly protectedTarget?: string;
  /**
   * The call would fail for a reason the model can fix (an edit of a file it has not read): the
   * host returns this text as the failed result before asking anyone, instead of asking a person
   * to approve a call that cannot succeed.
   */
  readonly refusal?: string;
  readonly [fact: string]: unknown;
}

/** The call reads only (`read`, `grep`, `glob`, `list`). */
export interface ReadOnlyInspection {
  readonly kind: 'read_only';
}

/** The call writes `target` (`write`, `edit`): the path as the model gave it. */
export interface WritesInspection {
  readonly kind: 'writes';
  readonly target: string;
}

/** The call runs `command` (`bash`): the command text as the model gave it. */
export interface RunsInspection {
  readonly kind: 'runs';
  readonly command: string;
}

/**
 * What a call is about to do, reported by the tool before it runs (§2 `inspect`, §6.1). The host
 * decides from it whether to ask the user; the tool never decides that itself.
 */
export type CallInspection = (ReadOnlyInspection | WritesInspection | RunsInspection) & CallFacts;

/** Constructors, so that an inspection is always one of the three kinds. */
export const CallInspection = Object.freeze({
  readOnly(facts?: CallFacts): CallInspection {
    return Object.freeze({ ...facts, kind: 'read_only' });
  },
  writes(target: string, facts?: CallFacts): CallInspection {
    return Object.freeze({ ...facts, kind: 'writes', target });
  },
  runs(command: string, facts?: CallFacts): CallInspection {
    return Object.freeze({ ...facts, kind: 'runs', command });
  },
});
