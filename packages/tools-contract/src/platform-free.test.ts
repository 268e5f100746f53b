import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceDirectory = dirname(fileURLToPath(import.meta.url));

/** Non-test sources of this package (test-support included: it is compiled the same way). */
function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the contract runs in any JS runtime', () => {
  it('uses no Node-only globals (Buffer, process, require, __dirname, setImmediate)', () => {
    const offenders: string[] = [];
    for (const file of sources(sourceDirectory)) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      for (const name of ['Buffer', 'process', 'require', '__dirname', '__filename', 'setImmediate', 'global']) {
        if (new RegExp(`(?<![\\w$.])${name}\\b(?!\\s*:)`).test(code)) offenders.push(`${file.slice(sourceDirectory.length + 1)}: ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
