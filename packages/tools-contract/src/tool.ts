import type * as z from 'zod';
import type { CallInspection } from './call-inspection.js';
import type { ToolArtifact } from './tool-artifact.js';
import type { ToolExecutionContext } from './tool-execution-context.js';
import type { ToolExecutionError } from './tool-execution-error.js';
import type { ToolId } from './tool-id.js';
import type { ToolResultImage } from './tool-result-image.js';
import type { ToolRisk } from './tool-risk.js';

/**
 * A zod schema of a tool's input (classic `zod` or `zod/mini`). It must describe a JSON object
 * (`z.object`/`z.strictObject`); `finalize` rejects anything else, because model APIs only take
 * object-shaped tool inputs.
 */
export type ToolInputSchema = z.core.$ZodType;

/** The input a tool's `execute` receives: the schema's output (defaults applied). */
export type ToolInput<Schema extends ToolInputSchema> = z.output<Schema>;

/** A successful outcome with more than text. */
export interface ToolOutputValue {
  /** The model-visible text. */
  readonly text: string;
  /**
   * Model-visible images after the text, e.g. `read` of a PNG. Bounded apart from the text
   * (`MAX_RESULT_IMAGE_BYTES`, `MAX_RESULT_IMAGES`); say in the text what each image is.
   */
  readonly images?: readonly ToolResultImage[];
  /** For the host and UI only (§8.1), e.g. `file_change` (§8.4). */
  readonly artifacts?: readonly ToolArtifact[];
  /** §7.9: the call completed but the kernel sandbox denied something in it. */
  readonly sandboxDenied?: boolean;
}

/**
 * What `execute` returns: the text, text with images and artifacts, or a `ToolExecutionError` for an
 * expected failure (throwing it works the same).
 */
export type ToolOutput = string | ToolOutputValue | ToolExecutionError;

/**
 * The tool contract (§2). One zod schema drives both the model-facing JSON Schema and the
 * validation of every call, so the two can never disagree (acceptance 3).
 *
 * `Session` is whatever the host binds at `finalize` (builtins: `ToolSessionContext`); the
 * contract does not know what a session is. `Policy` is the per-call sandbox policy type.
 */
export interface Tool<Schema extends ToolInputSchema = ToolInputSchema, Session = unknown, Policy = unknown> {
  /** Explicit and stable (§2), e.g. `read`. */
  readonly id: ToolId;
  /** What the model is told about the tool; say when to use it and what it returns. */
  readonly description: string;
  /** A hint only; core makes no permission decision from it (§2). */
  readonly risk: ToolRisk;
  readonly inputSchema: Schema;
  /**
   * The facts before execution (§6.1): what the call reads, writes or runs, plus optional facts
   * for the host. Must not perform the call. Defaults to `read_only`.
   */
  readonly inspect?: (input: ToolInput<Schema>, session: Session) => CallInspection;
  /**
   * Performs the call. Report expected failures with a `ToolExecutionError`; any other throw
   * becomes `execution_failed`. Watch `call.signal`: a call whose signal is aborted when it
   * ends is reported as `cancelled`.
   */
  readonly execute: (
    input: ToolInput<Schema>,
    session: Session,
    call: ToolExecutionContext<Policy>,
  ) => ToolOutput | Promise<ToolOutput>;
}
