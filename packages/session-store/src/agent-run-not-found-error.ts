import { SessionStoreError } from './session-store-error.js';

/** No stored agent run has this id. Nothing was changed. */
export class AgentRunNotFoundError extends SessionStoreError {
  readonly agentId: string;

  constructor(agentId: string) {
    super('agent_run_not_found', `there is no agent ${JSON.stringify(agentId)}; list the parent session's agents to see which ids exist`);
    this.name = 'AgentRunNotFoundError';
    this.agentId = agentId;
  }

  static override isInstance(error: unknown): error is AgentRunNotFoundError {
    return SessionStoreError.isInstance(error) && error.code === 'agent_run_not_found';
  }
}
