#!/usr/bin/env node
// Bytes of typical `openwork mcp` tool results, through the surface clients use: the built server
// spawned as a process, called by the official MCP SDK client over stdio, on a temp HOME, OpenWork
// home and a workspace holding a 200 KB text file and a copy of @openwork/tools-contract's src/
// folder (files the MCP server's code does not include, so runs on two builds read the same
// bytes). For each call it prints the
// bytes of the whole result as JSON, of `content`, of `structuredContent`, and what each kind of
// client hands the model: the text content (clients that read `content`) or the JSON of
// `structuredContent` (clients that give the model only that when a tool has an `outputSchema`).
// Whether the second holds the model-visible text is the last column. Run after a build:
// `node bench/mcp-result-bytes.mjs`.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'dist', 'bundle', 'openwork.js');

const calls = [
  { name: 'read cut-oversized-result.ts (whole file, 100 lines)', tool: 'read', input: { path: 'src/cut-oversized-result.ts' } },
  { name: 'grep "ToolResult" in src', tool: 'grep', input: { pattern: 'ToolResult\\b', path: 'src' } },
  { name: 'bash ls -la src', tool: 'bash', input: { command: 'ls -la src' } },
  { name: 'bash seq 1 20000 (over bash\'s budget: cut, spilled)', tool: 'bash', input: { command: 'seq 1 20000' } },
  { name: 'read a 200 KB text file (one page, near the 32,000-byte cut)', tool: 'read', input: { path: 'big.txt' } },
  { name: 'read missing file (error)', tool: 'read', input: { path: 'src/no-such-file.ts' } },
];

const root = realpathSync(mkdtempSync(join(tmpdir(), 'openwork-mcp-bytes-')));
const workspace = join(root, 'workspace');
mkdirSync(join(root, 'home'), { recursive: true });
cpSync(join(here, '..', '..', '..', 'packages', 'tools-contract', 'src'), join(workspace, 'src'), { recursive: true });
writeFileSync(join(workspace, 'big.txt'), 'The quick brown fox jumps over the lazy dog; "quoted" and\ttabbed.\n'.repeat(3000));
const client = new Client({ name: 'mcp-result-bytes', version: '1.0.0' });
try {
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--workspace', workspace],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home'), OPENWORK_HOME: join(root, 'home', '.openwork'), TMPDIR: tmpdir() },
      cwd: root,
      stderr: 'ignore',
    }),
  );
  // listTools first: the SDK client validates structuredContent against each outputSchema only then.
  await client.listTools();
  const bytes = (value) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
  console.log('| call | whole result | content | structuredContent (= what a structured-only client gives the model) | text content (= what a content client gives the model) | text in structuredContent |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const call of calls) {
    const result = await client.callTool({ name: call.tool, arguments: call.input });
    const text = result.content.filter((part) => part.type === 'text').map((part) => part.text).join('\n');
    const carried = result.structuredContent?.text === text;
    console.log(`| ${call.name} | ${bytes(result)} | ${bytes(result.content)} | ${bytes(result.structuredContent)} | ${bytes(text)} | ${carried ? 'yes' : 'no'} |`);
  }
} finally {
  await client.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
}
