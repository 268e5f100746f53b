import { canonicalJson } from './canonical-json.js';
import { closestName } from './closest-name.js';
import type { PrepareOutcome } from './prepared-call.js';
import type { SpillSink } from './spill-sink.js';
import type { ToolAdapter } from './tool-adapter.js';
import type { ToolCallContext } from './tool-call-context.js';
import { ToolCallContextError } from './tool-call-context-error.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolExecutionContext } from './tool-execution-context.js';
import type { ToolId } from './tool-id.js';
import { ToolProgressReporter } from './tool-progress-reporter.js';
import { ToolResult } from './tool-result.js';
import { boundResultImages } from './bound-result-images.js';
import { cutOversizedResult } from './cut-oversized-result.js';
import { sha256Hex } from './sha256.js';
import { shortenForMessage } from './shorten-for-message.js';

/** Only `ToolRegistryBuilder.finalize` holds this, so only it can construct a toolset. */
export const FINALIZE_KEY: unique symbol = Symbol('openwork.tools-contract.finalize');

/** Versions the digest input, so a future change of the digest scheme cannot collide with this one. */
const DIGEST_PREFIX = 'openwork.toolset.v1\n';

/** @internal What `finalize` hands to the constructor. */
export interface FinalizedToolsetParts<Session, Policy> {
  readonly adapters: readonly ToolAdapter<Session, Policy>[];
  readonly session: Session;
  readonly spill: SpillSink | undefined;
  readonly escalationAvailable: boolean;
}

/**
 * The tools one agent may use, fixed at `finalize` (§3). The definitions shown to the model and
 * the tools `call` dispatches to come from the same selection, in `ToolsetConfig` order; there is
 * no way to add, remove or replace a tool afterwards (private fields, no mutators, frozen values).
 * The session context is bound here; each call brings its own `ToolCallContext`.
 */
export class FinalizedToolset<Session = unknown, Policy = unknown> {
  readonly #adapters: ReadonlyMap<ToolId, ToolAdapter<Session, Policy>>;
  readonly #definitions: readonly ToolDefinition[];
  readonly #toolIds: readonly ToolId[];
  readonly #session: Session;
  readonly #spill: SpillSink | undefined;
  readonly #escalationAvailable: boolean;
  /** Computed on first use (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): a one-call process never hashes the definitions. */
  #digest: string | undefined;

  /** @internal Use `ToolRegistryBuilder.finalize`. */
  constructor(key: typeof FINALIZE_KEY, parts: FinalizedToolsetParts<Session, Policy>) {
    if (key !== FINALIZE_KEY) throw new TypeError('A FinalizedToolset is made by ToolRegistryBuilder.finalize(config, session).');
    this.#adapters = new Map(parts.adapters.map((adapter) => [adapter.id, adapter]));
    this.#definitions = Object.freeze(parts.adapters.map((adapter) => adapter.definition));
    this.#toolIds = Object.freeze(parts.adapters.map((adapter) => adapter.id));
    this.#session = parts.session;
    this.#spill = parts.spill;
    this.#escalationAvailable = parts.escalationAvailable;
    Object.freeze(this);
  }

  /** What the model is shown, in `ToolsetConfig` order (acceptance 1, 5). Deeply frozen. */
  get definitions(): readonly ToolDefinition[] {
    return this.#definitions;
  }

  /** The selected tool IDs, in `ToolsetConfig` order. */
  get toolIds(): readonly ToolId[] {
    return this.#toolIds;
  }

  /**
   * A stable identity of what the model is shown: SHA-256 (hex) of the canonical JSON of the
   * definitions in order. Same definitions, same digest, in any run; any change to an ID,
   * description, schema, risk hint or the order gives another. Hosts cache on it.
   */
  get digest(): string {
    this.#digest ??= sha256Hex(DIGEST_PREFIX + canonicalJson(this.#definitions));
    return this.#digest;
  }

  /** Whether the escalation parameters are part of the schemas (§7.5). */
  get escalationAvailable(): boolean {
    return this.#escalationAvailable;
  }

  /** Whether `toolId` is selected in this toolset. */
  has(toolId: ToolId): boolean {
    return this.#adapters.has(toolId);
  }

  /** The definition of a selected tool, or `undefined`. */
  definition(toolId: ToolId): ToolDefinition | undefined {
    return this.#adapters.get(toolId)?.definition;
  }

  /**
   * §6.1: validates the input and returns the tool's inspection, without running anything. An
   * unknown tool or a bad input gives the result to send back instead; it never throws.
   */
  prepare(toolId: ToolId, rawInput: unknown): PrepareOutcome {
    const adapter = this.#adapters.get(toolId);
    if (adapter === undefined) return { ok: false, result: this.#notFound(toolId) };
    return adapter.prepare(rawInput, this.#session);
  }

  /**
   * Runs one call and returns its one final result (§8.3): `tool_not_found` for a tool outside
   * the selection (acceptance 4), `invalid_arguments` for a bad input, the mapped outcome of the
   * tool otherwise — cut to 32,000 bytes with the rest spilled (§8.2). Only a broken call context
   * (a host bug) throws; nothing a tool does can.
   *
   * `rawInput` is the JSON text of the arguments, or an already parsed object.
   */
  async call(toolId: ToolId, rawInput: unknown, context: ToolCallContext<Policy>): Promise<ToolResult> {
    checkContext(context);
    const adapter = this.#adapters.get(toolId);
    if (adapter === undefined) return this.#notFound(toolId);

    const reporter = new ToolProgressReporter(context.progress);
    const execution: ToolExecutionContext<Policy> = Object.freeze({
      callId: context.callId,
      signal: context.signal,
      deadline: context.deadline,
      sandboxPolicy: context.sandboxPolicy,
      reportProgress: (progress) => reporter.report(progress),
    });
    let result: ToolResult;
    try {
      result = await adapter.call(rawInput, this.#session, execution);
    } finally {
      // §8.3: no progress after the final result.
      reporter.close();
    }
    return cutOversizedResult(boundResultImages(result), context.callId, this.#spill);
  }

  #notFound(toolId: ToolId): ToolResult {
    const available = this.#toolIds.length === 0 ? 'none' : this.#toolIds.join(', ');
    return ToolResult.failure({
      code: 'tool_not_found',
      // The name comes from the model: quote only its start, so the result stays small (§8.2).
      message: `Tool ${JSON.stringify(shortenForMessage(String(toolId), 80))} is not available in this toolset.${suggestion(String(toolId), this.#toolIds)} Available tools: ${available}. Call one of those instead.`,
    });
  }
}

Object.freeze(FinalizedToolset.prototype);
Object.freeze(FinalizedToolset);

function checkContext(context: ToolCallContext<unknown>): void {
  if (typeof context !== 'object' || context === null) {
    throw new ToolCallContextError('FinalizedToolset.call needs a ToolCallContext { callId, signal, sandboxPolicy }.');
  }
  if (typeof context.callId !== 'string' || context.callId.trim() === '') {
    throw new ToolCallContextError('ToolCallContext.callId must be a non-blank string: pass the model\'s tool-call ID.');
  }
  const signal = context.signal as unknown;
  if (typeof signal !== 'object' || signal === null || typeof (signal as AbortSignal).aborted !== 'boolean') {
    throw new ToolCallContextError('ToolCallContext.signal must be an AbortSignal: derive one from the turn (AbortSignal.any).');
  }
  if (context.deadline !== undefined && !Number.isFinite(context.deadline)) {
    throw new ToolCallContextError('ToolCallContext.deadline must be epoch milliseconds (a finite number) or absent.');
  }
  if (context.progress !== undefined && typeof context.progress !== 'function') {
    throw new ToolCallContextError('ToolCallContext.progress must be a function or absent.');
  }
}

/** ` Did you mean read?` when the unknown name is a near miss of one tool, else nothing. */
function suggestion(toolId: string, toolIds: readonly string[]): string {
  const closest = toolId.length > 200 ? undefined : closestName(toolId, toolIds);
  return closest === undefined ? '' : ` Did you mean ${closest}?`;
}
