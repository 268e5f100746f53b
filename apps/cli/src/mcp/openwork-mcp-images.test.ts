import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients } from '../test-support/mcp-test-client.js';
import { renderedPlotNotebook, writeMediaWorkspace, type MediaFile } from '../test-support/media-workspace.js';

// Read of images, directories and notebooks end to end: `openwork mcp` as a real process, the SDK's own Client over stdio, real
// image files, a folder and a notebook in a temp workspace.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
let client: Client;
let images: MediaFile[];
let notebookImage: Buffer;

beforeEach(async () => {
  sandbox = await createCliSandbox();
  ({ images, notebookImage } = await writeMediaWorkspace(sandbox.workspace));
  ({ client } = await connect());
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

async function read(path: string, extra: Record<string, unknown> = {}): Promise<CallToolResult> {
  // Parsed with the SDK's own result schema: ImageContent must be valid MCP, not just JSON.
  return CallToolResultSchema.parse(await client.callTool({ name: 'read', arguments: { path, ...extra } }));
}

describe('openwork mcp: read of images, folders and notebooks', () => {
  it('each image is a TextContent caption followed by an ImageContent with its bytes', async () => {
    for (const image of images) {
      const result = await read(image.name);
      expect(result.isError, image.name).toBe(false);
      expect(result.content).toEqual([
        { type: 'text', text: image.caption },
        { type: 'image', data: image.bytes.toString('base64'), mimeType: image.mimeType },
      ]);
      // The image is model-visible content, so it is not repeated among the host's artifacts.
      expect(result._meta?.['openwork/result']).toMatchObject({ status: 'succeeded', artifacts: [] });
    }
  });

  it('a folder is listed like list, with read paging', async () => {
    const all = await read('assets');
    expect(all.content).toEqual([{ type: 'text', text: 'anim.gif\nlogo.webp\nphoto.jpg\nshot.png' }]);
    const page = await read('assets', { offset: 2, limit: 2 });
    expect(page.content).toEqual([{ type: 'text', text: 'logo.webp\nphoto.jpg\n\n[showing entries 2-3 of 4 in assets. Continue with offset=4]' }]);
  });

  it('a notebook is rendered text with its image output as ImageContent; a corrupt image is an isError result', async () => {
    const result = await read('plot.ipynb');
    expect(result.content).toEqual([
      { type: 'text', text: `${renderedPlotNotebook(notebookImage)}\n[notebook shown rendered; edit and write change its JSON text: grep -n the .ipynb to see the raw lines]` },
      { type: 'image', data: notebookImage.toString('base64'), mimeType: 'image/png' },
    ]);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${sandbox.workspace}/cut.png`, images[0]!.bytes.subarray(0, 40));
    const cut = await read('cut.png');
    expect(cut.isError).toBe(true);
    expect(cut.content).toEqual([{ type: 'text', text: expect.stringMatching(/^cut\.png starts like a PNG image but is not a valid one: /) }]);
  });
});
