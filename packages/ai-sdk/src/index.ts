// The public surface of @openwork/ai-sdk. Adding a name here is a decision to publish it.
export { openworkTools, type OpenworkTool } from './openwork-tools.js';
export type { OpenworkToolsOptions } from './openwork-tools-options.js';
export type { OpenworkToolOutput } from './openwork-tool-output.js';
export { modelToolOutput, type ModelToolOutput } from './model-tool-output.js';
export { approvalText, type ApprovalToolCall } from './approval-text.js';
