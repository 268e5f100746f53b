import type { CliToolResult } from '../output/tool-result-output.js';

type ToolArtifact = CliToolResult['artifacts'][number];

/** The most `structuredContent` of one result may take, in UTF-8 bytes of its JSON (MCP clients). */
export const MAX_STRUCTURED_CONTENT_BYTES = 64 * 1024;

/** Where a client reads a change's whole artifact (before/after contents, hunks): an MCP resource. */
export function changeResourceUri(changeId: string): string {
  return `openwork://changes/${encodeURIComponent(changeId)}`;
}

/** A string field of an artifact summary longer than this is left out (it would be content). */
const MAX_SUMMARY_STRING = 512;

/**
 * The `outputSchema` of every tool (JSON Schema 2020-12): what `structuredContent` holds. Clients
 * validate results against it (the SDK client does), so `structuredResult` must always match it.
 */
export const TOOL_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    callId: { type: 'string', description: 'The id of this call in the session (as `openwork changes` and `conversation_history` name it).' },
    status: { type: 'string', enum: ['succeeded', 'failed', 'denied', 'cancelled', 'outcome_unknown'] },
    error: {
      description: 'Present when status is not succeeded.',
      anyOf: [
        {
          type: 'object',
          properties: { code: { type: 'string' }, message: { type: 'string' }, retryable: { type: 'boolean' } },
          required: ['code', 'message', 'retryable'],
        },
        { type: 'null' },
      ],
    },
    sandboxDenied: { type: 'boolean', description: 'The sandbox denied something during the call.' },
    artifacts: {
      type: 'array',
      description:
        'A compact summary of each artifact (never file contents). A file change names its change id, path, kind, +/- counts and hashes, and the resource (openwork://changes/<id>) that holds the whole artifact.',
      items: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
    },
    artifactsOmitted: { type: 'integer', minimum: 1, description: 'Artifacts left out to keep this under 64 KiB; their resources still hold them.' },
  },
  required: ['callId', 'status', 'error', 'sandboxDenied', 'artifacts'],
} as const;

/**
 * `structuredContent` of one call (docs/decisions/0066-cli-mcp-server-behaviour.md): the status, the error and a compact summary of each
 * artifact — never file contents, since several clients forward structured content to the model
 * (architecture: artifacts never reach the model) — and never over 64 KiB. A `file_change` becomes
 * `{ kind, changeId, path, change, additions, deletions, beforeHash, afterHash, undone, resource }`;
 * the whole artifact stays available as the MCP resource `resource` and through `openwork changes`.
 * Other kinds keep their short scalar fields only.
 */
export function structuredResult(callId: string, result: CliToolResult): Record<string, unknown> {
  const base = { callId, status: result.status, error: result.error, sandboxDenied: result.sandboxDenied };
  const summaries = result.artifacts.map(summarizeArtifact);
  let kept = summaries.length;
  const sized = (count: number) => ({ ...base, artifacts: summaries.slice(0, count), ...(count < summaries.length ? { artifactsOmitted: summaries.length - count } : {}) });
  while (kept > 0 && Buffer.byteLength(JSON.stringify(sized(kept))) > MAX_STRUCTURED_CONTENT_BYTES) kept -= 1;
  return sized(kept);
}

/** One artifact as a summary: a file change by its facts, anything else by its short scalars. */
export function summarizeArtifact(artifact: ToolArtifact): Record<string, unknown> & { kind: string } {
  const change = artifact['change'];
  if (artifact.kind === 'file_change' && typeof change === 'object' && change !== null) {
    const fields = change as Record<string, unknown>;
    const changeId = typeof fields['changeId'] === 'string' ? fields['changeId'] : undefined;
    return {
      kind: artifact.kind,
      ...pick(fields, ['changeId', 'additions', 'deletions', 'beforeHash', 'afterHash', 'undone']),
      ...(typeof fields['displayPath'] === 'string' ? { path: fields['displayPath'] } : {}),
      ...(typeof fields['kind'] === 'string' ? { change: fields['kind'] } : {}),
      ...(changeId === undefined ? {} : { resource: changeResourceUri(changeId) }),
    };
  }
  const scalars = Object.entries(artifact).filter(
    ([, value]) => typeof value === 'number' || typeof value === 'boolean' || value === null || (typeof value === 'string' && value.length <= MAX_SUMMARY_STRING),
  );
  return { ...Object.fromEntries(scalars), kind: artifact.kind };
}

function pick(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'number' || typeof value === 'boolean' || value === null || (typeof value === 'string' && value.length <= MAX_SUMMARY_STRING)) picked[name] = value;
  }
  return picked;
}
