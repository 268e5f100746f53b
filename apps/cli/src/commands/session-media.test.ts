import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { renderedPlotNotebook, writeMediaWorkspace } from '../test-support/media-workspace.js';

// Read of images, directories and notebooks through `openwork session`: the built executable, the real SQLite store in a temp
// OpenWork home and real files; each ToolResult line carries its image parts.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => sandbox.remove());

interface ResultLine {
  readonly status: string;
  readonly content: ({ type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string })[];
}

describe('openwork session: read of images, folders and notebooks (issue 27)', () => {
  it('images, a folder and a notebook in one session; a read notebook can then be edited as JSON', async () => {
    const { images, notebookImage } = await writeMediaWorkspace(sandbox.workspace);
    const calls = [
      ...images.map((image) => ({ tool: 'read', input: { path: image.name } })),
      { tool: 'read', input: { path: 'assets' } },
      { tool: 'read', input: { path: 'plot.ipynb', offset: 12 } },
      { tool: 'edit', input: { filePath: 'plot.ipynb', oldString: '"source": "plot()"', newString: '"source": "plot(1)"' } },
    ];
    const run = await runOpenwork(['session', '--workspace', sandbox.workspace], {
      environment: sandbox.environment,
      cwd: sandbox.workspace,
      stdin: `${calls.map((call) => JSON.stringify(call)).join('\n')}\n`,
    });
    expect(run.stderr).toMatch(/^openwork session \S+$/m);
    const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ResultLine);
    expect(results.map((result) => result.status)).toEqual(calls.map(() => 'succeeded'));
    images.forEach((image, index) => {
      expect(results[index]?.content).toEqual([
        { type: 'text', text: image.caption },
        { type: 'image', mimeType: image.mimeType, data: image.bytes.toString('base64') },
      ]);
    });
    expect(results[4]?.content).toEqual([{ type: 'text', text: 'anim.gif\nlogo.webp\nphoto.jpg\nshot.png' }]);
    const notebookPage = renderedPlotNotebook(notebookImage).split('\n').slice(11).join('\n');
    expect(results[5]?.content).toEqual([
      { type: 'text', text: `${notebookPage}\n[notebook shown rendered; edit and write change its JSON text: grep -n the .ipynb to see the raw lines]` },
      { type: 'image', mimeType: 'image/png', data: notebookImage.toString('base64') },
    ]);
    expect(run.status).toBe(0);
    expect(JSON.parse(await readFile(join(sandbox.workspace, 'plot.ipynb'), 'utf8')).cells[2].source).toBe('plot(1)');
  });

  it('a notebook that is not valid JSON and an image that lies about its type fail clearly and change nothing', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(sandbox.workspace, 'broken.ipynb'), '{"nbformat": 4, "cells": [');
    await writeFile(join(sandbox.workspace, 'fake.jpg'), 'GIF? no, text\n');
    const calls = [
      { tool: 'read', input: { path: 'broken.ipynb' } },
      { tool: 'read', input: { path: 'fake.jpg' } },
      { tool: 'edit', input: { filePath: 'broken.ipynb', oldString: '[', newString: '[]}' } },
    ];
    const run = await runOpenwork(['session'], { environment: sandbox.environment, cwd: sandbox.workspace, stdin: `${calls.map((call) => JSON.stringify(call)).join('\n')}\n` });
    const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ResultLine);
    expect(results.map((result) => result.status)).toEqual(['failed', 'failed', 'failed']);
    expect(results[0]?.content[0]).toMatchObject({ text: expect.stringMatching(/^broken\.ipynb is not valid JSON \(/) });
    expect(results[1]?.content[0]).toMatchObject({ text: expect.stringMatching(/^fake\.jpg is named like a JPEG image, but its content is not a PNG, JPEG, GIF or WebP image/) });
    // A failed read is not a read: the edit is refused, and the file keeps its bytes.
    expect(results[2]?.content[0]).toMatchObject({ text: 'Read broken.ipynb before editing it.' });
    expect(await readFile(join(sandbox.workspace, 'broken.ipynb'), 'utf8')).toBe('{"nbformat": 4, "cells": [');
    expect(run.status).toBe(1);
  });
});
