import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gifFile, jpegFile, pngFile, webpFile } from './image-files.js';

/** The images `writeMediaWorkspace` writes: name, MIME type, bytes, the caption read gives. */
export interface MediaFile {
  readonly name: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  readonly caption: string;
}

/**
 * Real files of every kind read shows in `workspace`: a PNG, JPEG, GIF and WebP built
 * byte by byte, a folder `assets/` holding them, and `plot.ipynb` — markdown, code with a stream,
 * an error, and an image output (the PNG).
 */
export async function writeMediaWorkspace(workspace: string): Promise<{ images: MediaFile[]; notebookImage: Buffer }> {
  await mkdir(join(workspace, 'assets'));
  const images: MediaFile[] = [
    { name: 'assets/shot.png', mimeType: 'image/png', bytes: pngFile(32, 16), caption: '32×16' },
    { name: 'assets/photo.jpg', mimeType: 'image/jpeg', bytes: jpegFile(24, 16), caption: '24×16' },
    { name: 'assets/anim.gif', mimeType: 'image/gif', bytes: gifFile(6, 5), caption: '6×5' },
    { name: 'assets/logo.webp', mimeType: 'image/webp', bytes: webpFile(7, 3), caption: '7×3' },
  ].map((image) => ({ ...image, caption: `${image.mimeType} ${image.caption}, ${image.bytes.length} bytes` }));
  for (const image of images) await writeFile(join(workspace, image.name), image.bytes);
  const notebookImage = pngFile(4, 4);
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: 'markdown', metadata: {}, source: '# Plot' },
      { cell_type: 'code', metadata: {}, execution_count: 1, source: 'print("hi")\n1/0', outputs: [
        { output_type: 'stream', name: 'stdout', text: 'hi\n' },
        { output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: ['ZeroDivisionError: division by zero'] },
      ] },
      { cell_type: 'code', metadata: {}, execution_count: 2, source: 'plot()', outputs: [
        { output_type: 'display_data', metadata: {}, data: { 'image/png': notebookImage.toString('base64'), 'text/plain': '<Figure>' } },
      ] },
    ],
  };
  await writeFile(join(workspace, 'plot.ipynb'), JSON.stringify(notebook, null, 1));
  return { images, notebookImage };
}

/** What read renders `plot.ipynb` to (without the trailing edit hint). */
export function renderedPlotNotebook(notebookImage: Buffer): string {
  return [
    '1\t[cell 1 · markdown]',
    '2\t# Plot',
    '3\t',
    '4\t[cell 2 · code]',
    '5\tprint("hi")',
    '6\t1/0',
    '7\t[output · stdout]',
    '8\thi',
    '9\t[output · error ZeroDivisionError]',
    '10\tZeroDivisionError: division by zero',
    '11\t',
    '12\t[cell 3 · code]',
    '13\tplot()',
    '14\t[output · display]',
    `15\t[image 1 · image/png 4×4, ${notebookImage.length} bytes]`,
    '16\t<Figure>',
  ].join('\n');
}
