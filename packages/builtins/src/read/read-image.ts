import { createHash } from 'node:crypto';
import { FileTooLargeError } from '@openwork/fs-backend';
import { ToolExecutionError, type ResultImageType, type ToolOutputValue } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { checkImage } from './image/check-image.js';
import { formatSize } from './format-size.js';
import { IMAGE_TYPE_NAMES } from './image/image-facts.js';
import { imageTooLargeText, imageTooWideText, invalidImageText } from './image/image-problem-text.js';
import { imageTypeOfName, sniffImageType } from './image/sniff-image-type.js';
import { READ_MAX_IMAGE_BYTES, READ_MAX_IMAGE_SIDE } from './read-limits.js';

/**
 * `read` of an image (docs/decisions/0013-read-shows-images-without-downscaling.md, 0014): the whole file as one image part plus one text line
 * (`image/png 1280×720, 84 KB`). The steps, each of which can refuse with a message that says what
 * to do instead:
 * 1. read at most 5 MiB (a larger file is refused before it is read);
 * 2. confirm the path still resolves to itself (no swap for a link mid-read);
 * 3. take the type from the bytes read, not from the name or an earlier look;
 * 4. check the structure (and PNG's pixel data) and take the size from the header;
 * 5. refuse more than 8,000 px on a side — never downscale (see the README: measured, not worth it);
 * 6. record the hash of the bytes shown (§7.4), so edit and write see the file as read.
 */
export async function readImage(session: ToolSessionContext, target: CheckedPath, announced: ResultImageType, signal: AbortSignal): Promise<ToolOutputValue | ToolExecutionError> {
  const display = target.displayPath;
  let bytes: Uint8Array;
  try {
    bytes = await session.filesystem.readFile(target.path, { maxBytes: READ_MAX_IMAGE_BYTES, signal });
  } catch (error) {
    if (FileTooLargeError.isInstance(error)) return new ToolExecutionError('execution_failed', imageTooLargeText(display, announced, error.size));
    throw error;
  }
  const moved = await confirmPathUnchanged(session, target, 'read');
  if (moved !== undefined) return moved;
  const type = sniffImageType(bytes);
  if (type === undefined) return new ToolExecutionError('execution_failed', `${display} changed while read was looking at it and is no longer an image. Call read again.`);
  const check = await checkImage(bytes, type, READ_MAX_IMAGE_SIDE, signal);
  if (!check.ok) return new ToolExecutionError('execution_failed', invalidImageText(display, type, check.problem));
  const tooWide = imageTooWideText(display, check.facts);
  if (tooWide !== undefined) return new ToolExecutionError('execution_failed', tooWide);
  session.observations.record(target, createHash('sha256').update(bytes).digest('hex'));
  const named = imageTypeOfName(display);
  const mismatch = named !== undefined && named !== type ? ` (named like a ${IMAGE_TYPE_NAMES[named]}, but the content is ${IMAGE_TYPE_NAMES[type]})` : '';
  return {
    text: `${type} ${check.facts.width}×${check.facts.height}, ${formatSize(bytes.length)}${mismatch}`,
    images: [{ type: 'image', mimeType: type, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') }],
  };
}
