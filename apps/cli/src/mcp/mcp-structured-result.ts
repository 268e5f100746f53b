import { resultText, type CliToolResult } from '../output/tool-result-output.js';

type ToolArtifact = CliToolResult['artifacts'][number];

/**
 * The most the host's summary of one result (`_meta["openwork/result"]`) may take, in UTF-8 bytes of
 * its JSON: artifact summaries are left out from the end to stay under it (docs/decisions/0100-mcp-compact-results.md).
 */
export const MAX_STRUCTURED_CONTENT_BYTES = 64 * 1024;

/** The `_meta` key of a result's host summary: call id, status, typed error, artifact summaries. */
export const RESULT_META_KEY = 'openwork/result';

/** Where a client reads a change's whole artifact (before/after contents, hunks): an MCP resource. */
export function changeResourceUri(changeId: string): string {
  return `openwork://changes/${encodeURIComponent(changeId)}`;
}

/** A string field of an artifact summary longer than this is left out (it would be content). */
const MAX_SUMMARY_STRING = 512;

/**
 * `structuredContent` of one call: what the model needs and nothing else, because Claude Code and
 * Codex give the model this object (as JSON) instead of `content` whenever it is present
 * (docs/decisions/0073, 0100). `text` always: exactly the result's text content. `imageNote` when
 * the result has images (they stay image content; base64 here would reach such a model as text).
 * `error` — the error code alone, never its message (that is the text) — when the call failed with
 * a code that says more than "it failed" (`isError` says that): every code but `execution_failed`.
 * Call id, status, `sandboxDenied` and artifact summaries are the host's: `resultMeta`.
 */
export function structuredResult(result: CliToolResult): Record<string, unknown> {
  const note = imageNote(result);
  const code = result.error?.code;
  return {
    text: resultText(result),
    ...(note === undefined ? {} : { imageNote: note }),
    ...(result.status !== 'succeeded' && code !== undefined && code !== 'execution_failed' ? { error: code } : {}),
  };
}

/**
 * The host's summary of one call, sent as the result's `_meta["openwork/result"]` (clients give the
 * model `content` or `structuredContent`, not `_meta`): the call id, the status, the typed error
 * without its message (the message is the text), `sandboxDenied` and a compact summary of each
 * artifact — never an artifact's contents. A `file_change` becomes `{ kind, changeId, path, change,
 * additions, deletions, beforeHash, afterHash, undone, resource }`; the whole artifact stays
 * available as the MCP resource `resource` and through `openwork changes`. Other kinds keep their
 * short scalar fields only. It stays under 64 KiB by leaving out artifact summaries from the end.
 */
export function resultMeta(callId: string, result: CliToolResult): Record<string, unknown> {
  const error = result.error === null ? null : { code: result.error.code, retryable: result.error.retryable };
  const base = { callId, status: result.status, error, sandboxDenied: result.sandboxDenied };
  const summaries = result.artifacts.map(summarizeArtifact);
  let kept = summaries.length;
  const sized = (count: number) => ({ ...base, artifacts: summaries.slice(0, count), ...(count < summaries.length ? { artifactsOmitted: summaries.length - count } : {}) });
  while (kept > 0 && Buffer.byteLength(JSON.stringify(sized(kept))) > MAX_STRUCTURED_CONTENT_BYTES) kept -= 1;
  return sized(kept);
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
