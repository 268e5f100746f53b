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
 * writer's fields survive an older reader.
 */
const fileChangeSchema = z
  .looseObject({
    changeId: z.string().min(1),
    path: z.string(),
    realPath: z.string().startsWith('/'),
    displayPath: z.string(),
    kind: z.enum(['created', 'modified']),
    additions: lineCount,
    deletions: lineCount,
    hunks: z.array(fileChangeHunkSchema),
    beforeHash: sha256Hex.nullable(),
    afterHash: sha256Hex,
    beforeContent: z.string().nullable(),
    afterContent: z.string(),
    mode: z.number().int().min(0).max(0o7777).optional(),
    undone: z.boolean(),
  })
  .superRefine((change, context) => {
    const created = change.kind === 'created';
    if (created !== (change.beforeHash === null) || created !== (change.beforeContent === null)) {
      context.addIssue({
        code: 'custom',
        message: 'beforeHash and beforeContent are null exactly when kind is "created"',
        path: ['kind'],
      });
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
