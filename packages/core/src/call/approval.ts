import type { CommandFinding, PathGrant } from '@openwork/sandbox';
import type { ToolId } from '@openwork/tools-contract';

/** Why a call needs the user's approval (architecture §4). */
export type ApprovalReason =
  /** The call asks for paths beyond the session's policy (§7.5 `sandboxPermissions`). */
  | 'escalation'
  /** The command matched a dangerous-command rule (architecture §3.6). */
  | 'danger';

/**
 * What the user is shown before a call runs: the tool, what the call does, the extra paths it asks
 * for (with access and scope) and the model's justification, and why the command is dangerous.
 * Plain, frozen data (a host may send it over the wire). It never contains file contents.
 */
export interface ApprovalCard {
  readonly toolId: ToolId;
  /** Why approval is needed; one or both reasons. */
  readonly reasons: readonly ApprovalReason[];
  /** The command of a `bash` call (the text of a `bash_input` call), as the model wrote it. */
  readonly command?: string;
  /** Background bash: the model's few words for the person on what the call does (bash `description`; the task a `bash_input` types into). */
  readonly description?: string;
  /** The path a `write`/`edit` call writes, as the model gave it. */
  readonly target?: string;
  /** §7.5 paths the call asks for, canonical, each with `access` (read|write) and `scope` (exact|subtree). Empty without escalation. */
  readonly paths: readonly PathGrant[];
  /** The model's one-line reason for the extra paths (present with `escalation`). */
  readonly justification?: string;
  /** Present with `danger`: the findings of the command analysis and one sentence for the user. */
  readonly danger?: ApprovalDanger;
}

/** Why a command is dangerous (architecture §3.6), for the approval prompt. */
export interface ApprovalDanger {
  /** The findings' reasons joined, one per line. */
  readonly reason: string;
  readonly findings: readonly CommandFinding[];
}

/** Where the call the card describes comes from. */
export interface ApprovalContext {
  readonly sessionId: string;
  readonly callId: string;
  /** Aborted when the turn or the call is cancelled: stop asking, the answer is no longer needed. */
  readonly signal: AbortSignal;
  /** Present when a child agent makes the call (architecture §4): which child, for whom. `sessionId` is the child's. */
  readonly agent?: ApprovalAgent;
}

/** The child agent asking for an approval. */
export interface ApprovalAgent {
  readonly agentId: string;
  readonly parentSessionId: string;
  readonly role: string;
  /** 1 for a child of a root session, 2 for a grandchild. */
  readonly depth: number;
  /** The task the child was given (its current round's prompt). */
  readonly prompt: string;
}

/** The user's answer. A refusal may carry a reason, which the model is shown. */
export type ApprovalDecision = { readonly approved: true } | { readonly approved: false; readonly reason?: string };

/**
 * Asks the user about one call (architecture §4). Answer `true`/`false` or an `ApprovalDecision`.
 * An approval widens the policy of this one call only (§3.3); a refusal, a throw or a rejection
 * gives the model a `denied` result and nothing runs.
 */
export type Approver = (card: ApprovalCard, context: ApprovalContext) => boolean | ApprovalDecision | Promise<boolean | ApprovalDecision>;
