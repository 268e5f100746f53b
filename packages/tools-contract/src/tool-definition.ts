import type { JsonSchema } from './json-schema.js';
import type { ToolId } from './tool-id.js';
import type { ToolRisk } from './tool-risk.js';

/**
 * What the model is shown about one tool (§2): `id + description + input_schema + risk_hint`.
 * Produced by `finalize` from the same selection that dispatches calls, deeply frozen.
 */
export interface ToolDefinition {
  readonly id: ToolId;
  readonly description: string;
  /** JSON Schema of the input, from the tool's zod schema (`io: 'input'`), without `$schema`/`title`. */
  readonly inputSchema: JsonSchema;
  readonly riskHint: ToolRisk;
}
