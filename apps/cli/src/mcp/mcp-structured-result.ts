import { resultText, type CliToolResult } from '../output/tool-result-output.js';

type ToolArtifact = CliToolResult['artifacts'][number];

/**
 * The most the summary part of one result's `structuredContent` (everything but `text`) may take,
 * in UTF-8 bytes of its JSON (issue 29). The `text` comes on top of it: it is the model-visible
 * result, already bounded by the 32,000-byte result cut, and never cut here.
 */
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
 * `text` comes first: several clients give the model `structuredContent` alone, serialized as JSON,
 * whenever a result has it, so the model-visible result must be in it.
 */
export const TOOL_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    text: {
      type: 'string',
      description:
        "The tool's result as the model sees it (file contents, matches, command output, or the error): the same text as this result's text content, at most 32,000 bytes.",
    },
    imageNote: {
      type: 'string',
      description: "Present when the result has images: they are this result's image content only, and this says how many and of which types.",
    },
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
        'A compact summary of each artifact (never its contents). A file change names its change id, path, kind, +/- counts and hashes, and the resource (openwork://changes/<id>) that holds the whole artifact.',
      items: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
    },
    artifactsOmitted: { type: 'integer', minimum: 1, description: 'Artifact summaries left out to keep the summary part (all but text) under 64 KiB; their resources still hold them.' },
  },
  required: ['text', 'callId', 'status', 'error', 'sandboxDenied', 'artifacts'],
} as const;

/**
 * `structuredContent` of one call: first the model-visible `text` of the result (the same text as
 * its text content, so a client that forwards only structured content to the model still gives it
 * the matches, the file contents or the command output), a note on its images when it has some
 * (images stay image content: base64 in JSON would reach such a model as text, not as an image),
 * then the status, the error and a compact summary of each artifact (issue 29) — never an
 * artifact's contents, since artifacts never reach the model. A `file_change` becomes
 * `{ kind, changeId, path, change, additions, deletions, beforeHash, afterHash, undone, resource }`;
 * the whole artifact stays available as the MCP resource `resource` and through `openwork changes`.
 * Other kinds keep their short scalar fields only. The summary part stays under 64 KiB by leaving
 * out artifact summaries from the end; the text is never cut here.
 */
export function structuredResult(callId: string, result: CliToolResult): Record<string, unknown> {
  const note = imageNote(result);
  const visible = { text: resultText(result), ...(note === undefined ? {} : { imageNote: note }) };
  const base = { callId, status: result.status, error: result.error, sandboxDenied: result.sandboxDenied };
  const summaries = result.artifacts.map(summarizeArtifact);
  let kept = summaries.length;
  const sized = (count: number) => ({ ...base, artifacts: summaries.slice(0, count), ...(count < summaries.length ? { artifactsOmitted: summaries.length - count } : {}) });
  while (kept > 0 && Buffer.byteLength(JSON.stringify(sized(kept))) > MAX_STRUCTURED_CONTENT_BYTES) kept -= 1;
  return { ...visible, ...sized(kept) };
}

/** What a reader of `structuredContent` alone learns of a result's images: how many, which types, how big. */
export function imageNote(result: CliToolResult): string | undefined {
  const images = result.content.flatMap((part) => (part.type === 'image' ? [part] : []));
  if (images.length === 0) return undefined;
  const each = images.map((image) => `${image.mimeType}, ${base64Bytes(image.data).toLocaleString('en-US')} bytes`).join('; ');
  const count = images.length === 1 ? '1 image' : `${images.length} images`;
  return `This result also has ${count} (${each}) as MCP image content, which is not part of this structured content; a client that shows the model only structured content does not show it.`;
}

/** The decoded size of base64 data, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** One artifact as a summary: a file change by its facts, anything else by its short scalars. */
export function summarizeArtifact(artifact: ToolArtifact): Record<string, unknown> & { kind: string } {
  const change = artifact['change'];
  if (artifact.kind === 'file_change' && typeof change === 'object' && change !== null) {
    const fields = change as Record<string, unknown>;
    const changeId = typeof fields['changeId'] === 'string' ? fields['changeId'] : undefined;
    return {
      kind: artifact.kind,
      ...pick(fields, ['changeId', 'callId', 'entry', 'unrecorded', 'additions', 'deletions', 'beforeHash', 'afterHash', 'undone']),
      ...(typeof fields['displayPath'] === 'string' ? { path: fields['displayPath'] } : {}),
      ...(typeof fields['kind'] === 'string' ? { change: fields['kind'] } : {}),
      ...(changeId === undefined ? {} : { resource: changeResourceUri(changeId) }),
    };
  }
  const summary = artifact['summary'];
  if (artifact.kind === 'file_change_summary' && typeof summary === 'object' && summary !== null) {
    // A bash call's counts (architecture §3.10): its scalars and the counts, small by construction.
    const fields = summary as Record<string, unknown>;
    const counts = fields['counts'];
    return { kind: artifact.kind, ...pick(fields, ['callId', 'recorded', 'undoable', 'complete', 'refused']), ...(typeof counts === 'object' && counts !== null ? { counts: pick(counts as Record<string, unknown>, ['created', 'modified', 'deleted']) } : {}) };
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
