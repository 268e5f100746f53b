import type { PathGrant } from '@openwork/sandbox';
import type { PreparedCall, ToolResult } from '@openwork/tools-contract';
import type { ApprovalCard } from './approval.js';

/**
 * What core decided about a call before running it (architecture §4, spec §6.1). Nothing has run
 * when a host holds one of these: `Session.prepare` gives it so a host (the CLI, an MCP server,
 * the AI SDK adapter's `needsApproval`) can learn whether a call needs approval, and why.
 */
export type CallPreparation =
  /** The call cannot run at all: `tool_not_found`, `invalid_arguments`, or a tool whose inspection failed. `result` is what the model gets. */
  | { readonly status: 'rejected'; readonly result: ToolResult }
  /** A rule denies it without asking: a hard-protected target (tier 1). `result` is the `denied` result. */
  | { readonly status: 'denied'; readonly call: PreparedCall; readonly result: ToolResult }
  /** The user must approve it first: `card` is what to show; `grants` widen this one call once approved (§3.3). */
  | { readonly status: 'needs_approval'; readonly call: PreparedCall; readonly card: ApprovalCard; readonly grants: readonly PathGrant[] }
  /** It may run as it is, under the session's policy. */
  | { readonly status: 'ready'; readonly call: PreparedCall };
