import { CallInspection } from './call-inspection.js';
import { deepFreeze } from './deep-freeze.js';
import type { JsonSchema } from './json-schema.js';
import { parseToolInput } from './parse-tool-input.js';
import type { PrepareOutcome } from './prepared-call.js';
import { shortenForMessage } from './shorten-for-message.js';
import type { Tool, ToolInputSchema } from './tool.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolExecutionContext } from './tool-execution-context.js';
import { TOOL_ERROR_CODES } from './tool-error-code.js';
import { ToolExecutionError } from './tool-execution-error.js';
import type { ToolId } from './tool-id.js';
import { ToolResult } from './tool-result.js';
import { imageProblem, type ToolResultImage } from './tool-result-image.js';
import type { ToolRisk } from './tool-risk.js';

/** A tool whose input type has been erased (§2 `DynTool`): the one place `any` is needed. */
export type AnyTool<Session, Policy> = Tool<any, Session, Policy>;

/** Code points of an `inspect` error kept in `prepare`'s result. */
const LONGEST_INSPECT_ERROR = 2_000;

/** What a tool escalation field is refused with when no sandbox is available (§7.5). */
export interface RejectedField {
  readonly name: string;
  readonly reason: string;
}

/**
 * §2 `ToolAdapter<T>`: one selected tool, snapshotted at `finalize` (later changes to the tool
 * object have no effect), with its definition. Parses raw input, runs `inspect`/`execute`, and
 * maps every outcome — output, `ToolExecutionError`, unexpected throw, cancellation — to a
 * `ToolResult`. Nothing a tool does can make it throw.
 */
export class ToolAdapter<Session, Policy> {
  readonly id: ToolId;
  readonly risk: ToolRisk;
  readonly definition: ToolDefinition;
  readonly #tool: AnyTool<Session, Policy>;
  readonly #schema: ToolInputSchema;
  readonly #inspect: AnyTool<Session, Policy>['inspect'];
  readonly #execute: AnyTool<Session, Policy>['execute'];
  readonly #rejectedFields: readonly RejectedField[];

  constructor(tool: AnyTool<Session, Policy>, inputSchema: JsonSchema, rejectedFields: readonly RejectedField[]) {
    this.#tool = tool;
    this.id = tool.id;
    this.risk = tool.risk;
    this.#schema = tool.inputSchema;
    this.#inspect = tool.inspect;
    this.#execute = tool.execute;
    this.#rejectedFields = rejectedFields;
    this.definition = deepFreeze({ id: tool.id, description: tool.description, inputSchema, riskHint: tool.risk });
    Object.freeze(this);
  }

  /** §6.1: validate, then report the tool's facts. */
  prepare(rawInput: unknown, session: Session): PrepareOutcome {
    const parsed = parseToolInput(this.id, this.#schema, rawInput, this.#rejectedFields);
    if (!parsed.ok) return { ok: false, result: ToolResult.failure({ code: parsed.code, message: parsed.message }) };
    const input = parsed.input;
    let inspection: CallInspection;
    try {
      const reported: unknown = this.#inspect === undefined ? CallInspection.readOnly() : this.#inspect.call(this.#tool, input, session);
      inspection = validInspection(reported);
    } catch (error) {
      return {
        ok: false,
        // `prepare`'s results are not cut (§8.2), and the message may quote the input.
        result: ToolResult.failure({
          code: 'execution_failed',
          message: `${this.id} could not inspect the call: ${shortenForMessage(describeError(error), LONGEST_INSPECT_ERROR)}`,
        }),
      };
    }
    return { ok: true, call: Object.freeze({ toolId: this.id, risk: this.risk, input, inspection }) };
  }

  /** §2: parse, execute, map to a result (before the fallback cut). */
  async call(rawInput: unknown, session: Session, context: ToolExecutionContext<Policy>): Promise<ToolResult> {
    const parsed = parseToolInput(this.id, this.#schema, rawInput, this.#rejectedFields);
    if (!parsed.ok) return ToolResult.failure({ code: parsed.code, message: parsed.message });
    if (context.signal.aborted) {
      return ToolResult.failure({ code: 'cancelled', message: `The ${this.id} call was cancelled before it started.` });
    }

    let result: ToolResult;
    try {
      const output: unknown = await this.#execute.call(this.#tool, parsed.input, session, context);
      result = this.#resultOf(output);
    } catch (error) {
      if (ToolExecutionError.isInstance(error)) {
        result = resultOfError(error);
      } else if (context.signal.aborted && isAbortError(error)) {
        result = ToolResult.failure({ code: 'cancelled', message: `The ${this.id} call was cancelled.` });
      } else {
        result = ToolResult.failure({ code: 'execution_failed', message: `${this.id} failed unexpectedly: ${describeError(error)}` });
      }
    }

    // §5: a call whose signal was aborted by the time it ended is a cancelled call; whatever it
    // produced stays visible (text) and recorded (artifacts).
    if (context.signal.aborted && result.status !== 'cancelled' && result.status !== 'outcome_unknown') {
      const text = ToolResult.text(result);
      const message = `The ${this.id} call was cancelled.${text === '' ? '' : ` Output before cancellation:\n${text}`}`;
      result = ToolResult.failure(
        { code: 'cancelled', message },
        { artifacts: result.artifacts, sandboxDenied: result.sandboxDenied },
      );
    }
    return result;
  }

  #resultOf(output: unknown): ToolResult {
    if (typeof output === 'string') return ToolResult.success(output);
    if (ToolExecutionError.isInstance(output)) return resultOfError(output);
    if (typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string') {
      const value = output as { text: string; images?: unknown; artifacts?: unknown; sandboxDenied?: unknown };
      const images = value.images ?? [];
      const imageIssue = Array.isArray(images) ? images.map(imageProblem).find((issue) => issue !== undefined) : 'images must be an array';
      if (imageIssue !== undefined) {
        return ToolResult.failure({ code: 'execution_failed', message: `${this.id} returned an invalid image: ${imageIssue}.` });
      }
      const artifacts = value.artifacts ?? [];
      if (!Array.isArray(artifacts) || !artifacts.every(isArtifact)) {
        return ToolResult.failure({
          code: 'execution_failed',
          message: `${this.id} returned invalid artifacts: each must be an object with a non-empty string "kind".`,
        });
      }
      return ToolResult.success(value.text, { images: images as ToolResultImage[], artifacts, sandboxDenied: value.sandboxDenied === true });
    }
    return ToolResult.failure({
      code: 'execution_failed',
      message: `${this.id} returned an invalid output (${output === null ? 'null' : typeof output}); a tool returns a string, { text, images?, artifacts?, sandboxDenied? } or a ToolExecutionError.`,
    });
  }
}

function resultOfError(error: ToolExecutionError): ToolResult {
  // A tool in plain JavaScript can pass any string; hosts switch on the codes of §8.1 only.
  const known = TOOL_ERROR_CODES.includes(error.code);
  return ToolResult.failure(
    { code: known ? error.code : 'execution_failed', message: error.message, retryable: known ? error.retryable : false },
    { artifacts: error.artifacts, sandboxDenied: error.sandboxDenied },
  );
}

function validInspection(value: unknown): CallInspection {
  if (typeof value === 'object' && value !== null) {
    const inspection = value as { kind?: unknown; target?: unknown; command?: unknown };
    if (inspection.kind === 'read_only') return Object.freeze({ ...(value as CallInspection) });
    if (inspection.kind === 'writes' && typeof inspection.target === 'string') return Object.freeze({ ...(value as CallInspection) });
    if (inspection.kind === 'runs' && typeof inspection.command === 'string') return Object.freeze({ ...(value as CallInspection) });
  }
  throw new TypeError('inspect must return a CallInspection (read_only, writes(target) or runs(command))');
}

function isArtifact(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string' && (value as { kind: string }).kind !== '';
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ((error as { name?: unknown }).name === 'AbortError' || (error as { name?: unknown }).name === 'TimeoutError');
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  try {
    return String(error);
  } catch {
    return 'an unprintable value was thrown';
  }
}
