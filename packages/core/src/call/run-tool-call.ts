import type { ToolSessionContext } from '@openwork/builtins';
import type { PathGrant, SandboxPolicy } from '@openwork/sandbox';
import { ToolResult, type FinalizedToolset, type ToolProgress, type ToolProgressListener } from '@openwork/tools-contract';
import { DeliveryQueue } from '../updates/delivery-queue.js';
import { PROGRESS_QUEUE_CAPACITY } from '../updates/progress-queue-capacity.js';
import type { SessionUpdate } from '../updates/session-update.js';
import type { ControlContext } from '../control/control-context.js';
import type { Approver } from './approval.js';
import { askApprover } from './ask-approver.js';
import { prepareToolCall } from './prepare-tool-call.js';

/** What running a call needs from its session. */
export interface ToolCallHost {
  readonly sessionId: string;
  readonly toolset: FinalizedToolset<ToolSessionContext, SandboxPolicy>;
  readonly context: ToolSessionContext;
  /** Core's control tools (spec §3), looked up before the role's toolset; they run outside the sandbox. */
  readonly controls?: FinalizedToolset<ControlContext, SandboxPolicy>;
  /** §5: the session's mode plus `grants`, for this one call. */
  policy(grants: readonly PathGrant[]): SandboxPolicy;
  publish(update: SessionUpdate): void;
}

/** One call to run. */
export interface ToolCallRequest {
  readonly callId: string;
  readonly toolId: string;
  /** The arguments as the model sent them: JSON text or an object. */
  readonly input: unknown;
  readonly turnId: string | null;
  /** The call's signal, derived from the turn's (§5). */
  readonly signal: AbortSignal;
  readonly approver: Approver | undefined;
  readonly deadline?: number;
  /** A listener for this call's progress only, behind its own bounded queue (§8.3). */
  readonly onProgress?: ToolProgressListener;
}

/**
 * Architecture §4, one call: announce it, decide (`prepareToolCall`), ask the approver when the
 * call needs it, stamp the policy — the session's mode plus the grants approved for this call,
 * nothing else — and run it with the call's signal, forwarding progress to the subscribers and
 * to `onProgress` through bounded queues. Resolves to the call's one final result (§8.3); the
 * caller records it and publishes `tool_call_finished` after it.
 */
export async function runToolCall(host: ToolCallHost, request: ToolCallRequest): Promise<ToolResult> {
  const { callId, toolId, turnId, signal } = request;
  host.publish({ type: 'tool_call_started', sessionId: host.sessionId, turnId, callId, toolId, input: request.input });
  if (signal.aborted) return notRun();
  if (host.controls?.has(toolId) === true) {
    return host.controls.call(toolId, request.input, { callId, signal, sandboxPolicy: host.policy([]) });
  }

  const preparation = prepareToolCall(host.toolset, host.context, toolId, request.input, host.controls?.toolIds);
  let grants: readonly PathGrant[] = [];
  switch (preparation.status) {
    case 'rejected':
    case 'denied':
      return preparation.result;
    case 'needs_approval': {
      const approval = await askApprover(request.approver, preparation.card, { sessionId: host.sessionId, callId, signal });
      if (!approval.approved) return approval.result;
      grants = preparation.grants;
      break;
    }
    case 'ready':
      break;
  }

  const listener = request.onProgress;
  const ownQueue =
    listener === undefined
      ? undefined
      : new DeliveryQueue<ToolProgress>(listener, { droppable: () => true, capacity: PROGRESS_QUEUE_CAPACITY, maxPending: PROGRESS_QUEUE_CAPACITY });
  try {
    return await host.toolset.call(toolId, request.input, {
      callId,
      signal,
      sandboxPolicy: host.policy(grants),
      ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
      progress: (progress) => {
        host.publish({ type: 'tool_call_progress', sessionId: host.sessionId, turnId, callId, toolId, progress });
        ownQueue?.push(progress);
      },
    });
  } finally {
    // §8.3: nothing of this call's progress reaches its own listener after the final result.
    ownQueue?.close();
  }
}

function notRun(): ToolResult {
  return ToolResult.failure({ code: 'cancelled', message: 'The call was cancelled before it started. Nothing was run.' });
}
