#!/usr/bin/env node
// Bytes of typical `openwork mcp` results and of the tool list, through the surface clients use: the
// built server spawned as a process, called by the official MCP SDK client over stdio, on a temp
// HOME, OpenWork home and a workspace holding a 200 KB text file and a copy of
// @openwork/tools-contract's src/ folder (files the MCP server's code does not include, so runs on
// two builds read the same bytes). It prints the bytes of `tools/list`, then for each call the bytes
// of the whole result as JSON, of `content`, of `structuredContent`, and what each kind of client
// hands the model: the text content (clients that read `content`) or the JSON of
// `structuredContent` (Claude Code and Codex, whenever a result has it), and that JSON's overhead
// beyond the text: in bytes of the text as is, and beyond the text as a JSON string (what escaping
// newlines, tabs and quotes costs is in the first, not the second). Run after a build:
// `pnpm bench:mcp-bytes` (or `node apps/cli/bench/mcp-result-bytes.mjs`).
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
  { name: 'read a 3-line file', tool: 'read', input: { path: 'notes.txt' } },
  { name: 'bash_output poll of a running task', tool: 'bash_output', input: { taskId: '$task', waitMs: 1500 } },
  { name: 'refusal: write outside the workspace, no elicitation', tool: 'write', input: { path: '$outside', content: 'x', sandboxPermissions: { paths: [{ path: '$outside', access: 'write', scope: 'exact' }] }, justification: 'bench' } },
];

const root = realpathSync(mkdtempSync(join(tmpdir(), 'openwork-mcp-bytes-')));
const workspace = join(root, 'workspace');
mkdirSync(join(root, 'home'), { recursive: true });
cpSync(join(here, '..', '..', '..', 'packages', 'tools-contract', 'src'), join(workspace, 'src'), { recursive: true });
writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
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
  const bytes = (value) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
  const listed = await client.listTools();
  console.log(`tools/list: ${bytes(listed)} bytes for ${listed.tools.length} tools (outputSchema on ${listed.tools.filter((tool) => tool.outputSchema).length})\n`);
  const started = await client.callTool({ name: 'bash', arguments: { command: 'for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.5; done', runInBackground: true, yieldMs: 200 } });
  const task = /task (bg-[\w-]+)/.exec(started.content[0].text)?.[1] ?? 'bg-none';
  const outside = join(root, 'outside.txt');
  const fill = (value) => (value === '$task' ? task : value === '$outside' ? outside : Array.isArray(value) ? value.map(fill) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)])) : value);
  console.log('| call | whole result | content | structuredContent (= what a structured-only client gives the model) | text content (= what a content client gives the model) | overhead beyond the text | beyond the text as JSON | text in structuredContent |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const call of calls) {
    const result = await client.callTool({ name: call.tool, arguments: fill(call.input) });
    const text = result.content.filter((part) => part.type === 'text').map((part) => part.text).join('\n');
    const carried = result.structuredContent?.text === text;
    const structured = bytes(result.structuredContent);
    console.log(`| ${call.name} | ${bytes(result)} | ${bytes(result.content)} | ${structured} | ${bytes(text)} | ${structured - bytes(text)} | ${structured - bytes(JSON.stringify(text))} | ${carried ? 'yes' : 'no'} |`);
  }
} finally {
  await client.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
}
