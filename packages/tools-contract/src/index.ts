// The public surface of @openwork/tools-contract. Adding a name here is a decision to publish it.

export type { ToolId } from './tool-id.js';
export { TOOL_RISKS, type ToolRisk } from './tool-risk.js';
export {
  CallInspection,
  type CallFacts,
  type ReadOnlyInspection,
  type RunsInspection,
  type WritesInspection,
} from './call-inspection.js';
export type { JsonSchema, JsonValue } from './json-schema.js';
export type { ToolDefinition } from './tool-definition.js';
export type { Tool, ToolInput, ToolInputSchema, ToolOutput, ToolOutputValue } from './tool.js';
export { defineTool } from './define-tool.js';
export type { ToolCallContext } from './tool-call-context.js';
export type { ToolExecutionContext } from './tool-execution-context.js';
export type { ToolProgress, ToolProgressListener } from './tool-progress.js';
export { TOOL_ERROR_CODES, type ToolErrorCode } from './tool-error-code.js';
export type { ToolError } from './tool-error.js';
export { TOOL_RESULT_STATUSES, type ToolResultStatus } from './tool-result-status.js';
export type { ToolArtifact } from './tool-artifact.js';
export { ToolResult, type ToolFailure, type ToolResultContent, type ToolResultExtras, type ToolResultText } from './tool-result.js';
export { imageProblem as resultImageProblem, type ToolResultImage } from './tool-result-image.js';
export { MAX_RESULT_IMAGE_BYTES, MAX_RESULT_IMAGES, RESULT_IMAGE_TYPES, type ResultImageType } from './result-image-limits.js';
export { ToolsContractError } from './tools-contract-error.js';
export { ToolExecutionError, type ToolExecutionErrorOptions } from './tool-execution-error.js';
export { ToolsetConfigurationError, type ToolsetConfigurationProblem } from './toolset-configuration-error.js';
export { ToolCallContextError } from './tool-call-context-error.js';
export type { ToolsetConfig } from './toolset-config.js';
export type { FinalizeOptions } from './finalize-options.js';
export { ToolRegistryBuilder } from './tool-registry-builder.js';
export { FinalizedToolset } from './finalized-toolset.js';
export type { PreparedCall, PrepareOutcome } from './prepared-call.js';
export { ESCALATION_PARAMETER_NAMES } from './escalation-parameter-names.js';
export type { SpillSink } from './spill-sink.js';
export { sanitizeSpillId } from './sanitize-spill-id.js';
export { revealHiddenCharacters } from './reveal-hidden-characters.js';
export { FOOTER_RESERVE_BYTES, MAX_RESULT_BYTES, MAX_SPILL_BYTES, SPILL_BUFFER_BYTES } from './result-limits.js';
export { closestName } from './closest-name.js';
