import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every production source file of the package (tests and test support excluded), with its text. */
async function productionSources(): Promise<Array<{ path: string; text: string }>> {
  const found: Array<{ path: string; text: string }> = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-support') await walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        found.push({ path: relative(sourceRoot, path), text: await readFile(path, 'utf8') });
      }
    }
  };
  await walk(sourceRoot);
  return found;
}

/** The text of a file without its comments, so a sentence about spawning cannot hide or fake a call. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('acc_10d: no path starts bash without the sandbox (the 缺口 of 10d, checked by reading the code)', () => {
  it('the package never imports child_process and spawns in exactly one place, with the wrapped argv', async () => {
    const sources = await productionSources();
    expect(sources.length).toBeGreaterThan(20);
    for (const source of sources) {
      expect(code(source.text), source.path).not.toMatch(/child_process|\bexeca\b|\bexecFile|\bspawnSync\b|\bfork\(/);
    }
    const spawning = sources.filter((source) => /\.spawn\s*\(/.test(code(source.text))).map((source) => source.path);
    expect(spawning).toEqual(['bash/run-sandboxed-bash.ts']);
    const runner = code(sources.find((source) => source.path === 'bash/run-sandboxed-bash.ts')?.text ?? '');
    // Its one spawn takes the argv `wrap` returned, nothing else.
    expect([...runner.matchAll(/\.spawn\s*\(([^,]+),/g)].map((match) => match[1]?.trim())).toEqual(['wrapped.argv']);
    expect(runner).toMatch(/wrapped = session\.sandbox\.wrap\(\{ argv, cwd: request\.cwd \}, request\.policy\)/);
    // The process backend is used by nothing else.
    const users = sources.filter((source) => /\bprocessBackend\b/.test(code(source.text)) && source.path !== 'context/tool-session-context.ts');
    expect(users.map((source) => source.path)).toEqual(['bash/run-sandboxed-bash.ts']);
  });

  it('the bash argv is built in one place and handed only to the runner', async () => {
    const sources = await productionSources();
    const naming = sources.filter((source) => /BASH_PATH|['"]\/bin\/bash['"]/.test(code(source.text))).map((source) => source.path).sort();
    expect(naming).toEqual(['bash/bash-invocation.ts', 'bash/bash-limits.ts']);
    const callers = sources.filter((source) => /\bbashInvocation\(/.test(code(source.text))).map((source) => source.path).sort();
    expect(callers).toEqual(['bash/bash-invocation.ts', 'bash/run-sandboxed-bash.ts']);
    const runners = sources.filter((source) => /\brunSandboxedBash\(/.test(code(source.text))).map((source) => source.path).sort();
    // Background tasks start through the same runner (same wrap, same release); the
    // tool's call code is run-bash-call.ts, which bash-tool.ts loads on the first call.
    expect(runners).toEqual(['bash/background/start-background-bash.ts', 'bash/run-bash-call.ts', 'bash/run-sandboxed-bash.ts']);
  });
});
