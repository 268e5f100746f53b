import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { fileSystemFailure } from '../context/file-system-failure.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { notAnImageText } from './image/image-problem-text.js';
import { imageTypeOfName, sniffImageType } from './image/sniff-image-type.js';
import { readDirectory } from './read-directory.js';
import { readHead } from './read-head.js';
import { READ_MAX_LINES } from './read-limits.js';
import { readTextFile } from './read-text-file.js';

const inputSchema = z.strictObject({
  path: z.string().describe('File path: absolute, or relative to the working directory; ~ is your home'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(1)
    .describe('1-based number of the first line (of a directory: entry) to show; a previous read says which offset continues'),
  limit: z.number().int().min(1).max(READ_MAX_LINES).default(READ_MAX_LINES).describe('How many lines (of a directory: entries) to show, 1–2000'),
});

/**
 * §7.1 `read`, for everything a model meets in a repository (images, directories and notebooks: docs/decisions/0015-read-renders-notebooks-and-directories.md), decided in this order:
 * a directory is listed as list lists it (`readDirectory`); a `.ipynb` file is rendered as cells
 * (`readNotebook`); a file whose first bytes are a PNG, JPEG, GIF or WebP signature is shown as an
 * image (`readImage`), and one only named like an image is refused; everything else is a text file,
 * one numbered page at a time (`readTextFile`). Every successful read of a file records its hash
 * (§7.4). Never spills: the page is the result.
 */
export const readTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'read',
  description:
    'Read a file or directory. A text file: numbered lines ("{line}\\t{text}"), at most 2000 lines or about 32 KB per call; lines longer than 2000 characters are cut. An image (PNG, JPEG, GIF, WebP up to 5 MiB and 8000 px a side): the image itself. A Jupyter notebook (.ipynb): its cells and outputs as numbered text, with image outputs. A directory: its entries sorted by name, directories ending with "/". When there is more, the last line of the result says which offset to continue with.',
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'read');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const resolved = await session.resolvePath(input.path, 'read', 'must-exist', policy, 'read');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;
    const offset = Math.max(1, input.offset);

    try {
      const kind = (await session.filesystem.stat(target.path)).kind;
      if (kind === 'directory') return await readDirectory(session, target, offset, input.limit, call.signal);
      if (kind !== 'file') {
        return new ToolExecutionError('execution_failed', `${target.displayPath} is not a regular file (a device, FIFO or socket); read shows regular files and directories only.`);
      }
      // Notebooks and images load their readers when one is read (start-up).
      if (/\.ipynb$/i.test(target.path)) {
        const { readNotebook } = await import('./read-notebook.js');
        return await readNotebook(session, target, { offset, limit: input.limit, signal: call.signal });
      }
      const head = await readHead(session, target.path, call.signal);
      const imageType = sniffImageType(head);
      if (imageType !== undefined) {
        const { readImage } = await import('./read-image.js');
        return await readImage(session, target, imageType, call.signal);
      }
      const claimed = imageTypeOfName(target.path);
      if (claimed !== undefined) return new ToolExecutionError('execution_failed', notAnImageText(target.displayPath, claimed, head));
      return await readTextFile(session, target, offset, input.limit, call.signal);
    } catch (error) {
      return fileSystemFailure(error);
    }
  },
});

