import { z } from 'zod';
import { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');
const lineCount = z.number().int().nonnegative();

const fileChangeHunkSchema = z.object({
  oldStart: lineCount,
  oldLines: lineCount,
  newStart: lineCount,
  newLines: lineCount,
  lines: z.array(z.string()),
});

/**
 * The shape of a stored `file_change` artifact (§8.4). Unknown extra fields are kept, so a newer
 * writer's fields survive an older reader. A change of `write` or `edit` (no `entry`, no
 * `unrecorded`) has both hashes and contents exactly as before bash changes were recorded, so
 * artifacts stored then still parse.
 */
const fileChangeSchema = z
  .looseObject({
    changeId: z.string().min(1),
    callId: z.string().min(1).optional(),
    path: z.string(),
    realPath: z.string().startsWith('/'),
    displayPath: z.string(),
    kind: z.enum(['created', 'modified', 'deleted']),
    entry: z.enum(['file', 'directory', 'symlink']).optional(),
    additions: lineCount,
    deletions: lineCount,
    hunks: z.array(fileChangeHunkSchema),
    beforeHash: sha256Hex.nullable(),
    afterHash: sha256Hex.nullable(),
    beforeContent: z.string().nullable(),
    afterContent: z.string().nullable(),
    mode: z.number().int().min(0).max(0o7777).optional(),
    beforeMode: z.number().int().min(0).max(0o7777).optional(),
    size: z.number().int().nonnegative().optional(),
    beforeTarget: z.string().min(1).optional(),
    afterTarget: z.string().min(1).optional(),
    unrecorded: z.enum(['binary', 'too_large', 'not_recorded', 'over_budget']).optional(),
    undone: z.boolean(),
  })
  .superRefine((change, context) => {
    const issue = (message: string, path: string): void => {
      context.addIssue({ code: 'custom', message, path: [path] });
    };
    const entry = change.entry ?? 'file';
    if (entry !== 'file') {
      if (change.beforeHash !== null || change.afterHash !== null || change.beforeContent !== null || change.afterContent !== null) {
        issue(`a ${entry} change has no hashes or contents (null)`, 'entry');
      }
      if (entry === 'symlink' && change.unrecorded === undefined) {
        if ((change.kind === 'deleted') !== (change.beforeTarget !== undefined) || (change.kind === 'created') !== (change.afterTarget !== undefined)) {
          issue('a created link has afterTarget, a deleted link beforeTarget', 'kind');
        }
      }
      return;
    }
    if (change.unrecorded !== undefined) {
      for (const side of ['before', 'after'] as const) {
        if (change[`${side}Content`] !== null && change[`${side}Hash`] === null) issue(`${side}Content is recorded without ${side}Hash`, `${side}Hash`);
      }
      return;
    }
    const created = change.kind === 'created';
    const deleted = change.kind === 'deleted';
    if (created !== (change.beforeHash === null) || created !== (change.beforeContent === null)) {
      issue('beforeHash and beforeContent are null exactly when kind is "created"', 'kind');
    }
    if (deleted !== (change.afterHash === null) || deleted !== (change.afterContent === null)) {
      issue('afterHash and afterContent are null exactly when kind is "deleted"', 'kind');
    }
  });

const fileChangeArtifactSchema = z.looseObject({
  kind: z.literal(FILE_CHANGE_ARTIFACT_KIND),
  change: fileChangeSchema,
});

/** Outcome of {@link parseFileChangeArtifact}. */
export type FileChangeArtifactParse =
  | { readonly ok: true; readonly artifact: FileChangeArtifact }
  | { readonly ok: false; readonly message: string };

/**
 * Checks a value read back from a session store (or any JSON) against the `file_change` artifact
 * shape. Returns the artifact or a message naming the first wrong fields; never throws. It does
 * not hash the contents: undo and reapply verify the hashes against the contents themselves.
 */
export function parseFileChangeArtifact(value: unknown): FileChangeArtifactParse {
  const result = fileChangeArtifactSchema.safeParse(value);
  if (result.success) return { ok: true, artifact: result.data as FileChangeArtifact };
  const problems = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length === 0 ? '(artifact)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
  return { ok: false, message: `not a file_change artifact: ${problems}` };
}
