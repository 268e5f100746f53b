import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGitConfig } from './git-config-entries.js';

// The reader against git itself: each configuration is written to a file and listed with
// `git config --file F --list -z --no-includes` (includes compared as the plain keys they are).
// Where git lists the file, our entries equal git's; where git stops ("bad config line"), ours is
// untrusted and holds exactly what git listed before it stopped.

/** Fixed seed so a failure reproduces; override with FC_SEED=<n> to explore. */
const seed = Number(process.env.FC_SEED ?? 20_250_611);
const numRuns = 400;

let temp: string;
let file: string;
let environment: NodeJS.ProcessEnv;

beforeAll(() => {
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'ow-git-config-diff-'));
  file = path.join(temp, 'config');
  environment = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: temp,
    XDG_CONFIG_HOME: path.join(temp, 'xdg'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C',
  };
});

afterAll(() => {
  fs.rmSync(temp, { recursive: true, force: true });
});

type Pairs = [string, string | null][];

interface GitListing {
  readonly ok: boolean;
  readonly pairs: Pairs;
}

function gitList(bytes: Uint8Array): GitListing {
  fs.writeFileSync(file, bytes);
  const run = spawnSync('git', ['config', '--file', file, '--list', '-z', '--no-includes'], { cwd: temp, env: environment, encoding: 'buffer' });
  const stderr = run.stderr.toString('utf8');
  if (run.status !== 0 && !/bad config line/.test(stderr)) throw new Error(`git config failed otherwise (${run.status}): ${stderr}`);
  const records = run.stdout.toString('utf8').split('\0').slice(0, -1);
  const pairs: Pairs = records.map((record) => {
    const newline = record.indexOf('\n');
    return newline === -1 ? [record, null] : [record.slice(0, newline), record.slice(newline + 1)];
  });
  return { ok: run.status === 0, pairs };
}

function ours(bytes: Uint8Array): { ok: boolean; pairs: Pairs } {
  const parse = parseGitConfig(bytes);
  return { ok: parse.trusted, pairs: parse.entries.map((entry) => [entry.key, entry.valueGiven ? entry.value : null]) };
}

/** Our reading equals git's, or both stop (ours untrusted) after the same entries. */
function expectSameAsGit(bytes: Uint8Array): void {
  const git = gitList(bytes);
  expect(ours(bytes), JSON.stringify(Buffer.from(bytes).toString('latin1'))).toEqual(git);
}

const bytesOf = (text: string): Buffer => Buffer.from(text, 'utf8');

// Hand-written edge cases: each one is compared with git like the generated ones.
const edgeCases: readonly (string | Buffer)[] = [
  '',
  '\n\n',
  'key = before any section\n',
  'garbage',
  'garbage here',
  '[core]\n\thooksPath = .husky/_\n',
  '[Core]\n\tHooksPath = X\n[CORE]\n\tFSMONITOR\n',
  '[includeIf "gitdir:~/Work/"]\n\tpath = ~/work.gitconfig\n[include]\n\tpath = ../other\n[include "x"]\n\tpath = c\n',
  '[branch.Main]\n\tremote = origin\n[a.B "C"] k = 1\n',
  '[a ""]\nk = empty subsection\n[.]\nk = 1\n[ "x"]\nk = 2\n[a.]\nk=3\n[a..b]\nk=4\n',
  '[a "x\\"y\\\\z\\q ]["]\nk = 1\n',
  '[a "x\\\ny"]\nk = 1\n',
  '[a "x',
  '[a "x\\',
  '[a "x" ]',
  '[a"x"]',
  '[a "x"]]',
  '[core ]',
  '[ core]',
  '[]',
  '[a_b]',
  '[a]\nk_b = 1\n',
  '[a]\nk.b = 1\n',
  '[a]\n1k = 1\n',
  '[a]\n-k = 1\n',
  '[a][b]k=1 ; two headers on a line\n',
  '[a] # comment after a header\nk\n',
  '[a]\nk\n',
  '[a]\nk =\n',
  '[a]\nk = \n',
  '[a]\nk = ""\n',
  '[a]\nk = "" x\n',
  '[a]\nk = " " x\n',
  '[a]\nk = a\t\tb  c \n',
  '[a]\nk = "a\t b" c\n',
  '[a]\nk = a # b\n',
  '[a]\nk = "a # b" ; c\n',
  '[a]\nk = a\\\n',
  '[a]\nk = a\\',
  '[a]\nk = a \\\n  b\n',
  '[a]\nk = "a \\\n  b"\n',
  '[a]\nk = "unclosed\n',
  '[a]\nk = \\n\\t\\b\\\\\\"\n',
  '[a]\nk = \\x\n',
  '[a]\nk = \\ \n',
  '[a]\nk = a\\\r\nb\r\n',
  '[a]\r\nk = 1\r\n',
  '[a]\rk = 1\r',
  '[a]\nk\r\n',
  '[a]\nk\r= 1\n',
  '[a]\nk = a\rb\n',
  '[a]\nk = "a\rb"\n',
  '[a]\n\vk = 1\n',
  '[a]\nk = \v x\f\n',
  '[a]\nk = 1\n\\\n',
  '[a]\n# comment \\\nk = 1\n',
  '[a]\n; comment\n  \t k = 1\n',
  '[a]\nk = caf\u00e9 \u65e5\u672c\n[b "\u00e9"]\nk = 1\n',
  '[\u00e9]\nk = 1\n',
  '[a]\nk == 1\n',
  '[a]\nk = a=b\n',
  '[a]\n= no name\n',
  '[a]\n!bad = 1\n',
  '\ufeff[a]\nk = 1\n',
  Buffer.from('\xef\xbb[a]\nk = 1\n', 'latin1'),
  Buffer.from('\xef[a]\nk = 1\n', 'latin1'),
  '[a]\nk = 1\n\ufeff[b]\nk = 1\n',
  '[a]\nk = 1\n[b\n',
  '[core]\n\thooksPath = kept\n\tfsmonitor = "open\n\tpager = after\n',
];

describe('parseGitConfig against git config --list', () => {
  it(`agrees with git on ${edgeCases.length} hand-written edge cases`, () => {
    for (const text of edgeCases) expectSameAsGit(typeof text === 'string' ? bytesOf(text) : text);
  });

  // Generated configurations: mostly well-formed lines, with every odd form git knows mixed in,
  // and now and then a line git refuses.
  const spaces = fc.constantFrom('', '', ' ', '\t', '  \t', '\r');
  const sectionName = fc.constantFrom('core', 'Core', 'CORE', 'include', 'includeIf', 'remote', 'submodule', 'a-b', 'x1', 'a.b', 'Branch.Main', 'a.', '.', 'a..b');
  const subsectionPart = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom('a', 'B', ' ', '.', '\\"', '\\\\', '\\q', ']', '[', ';', '#', '=', 'gitdir:~/w/', '\u00e9', '\u65e5', '\t', '*', '\r') },
    { weight: 1, arbitrary: fc.constantFrom('\\\n', '"') },
  );
  const subsection = fc.array(subsectionPart, { maxLength: 5 }).map((parts) => parts.join(''));
  const header = fc.oneof(
    { weight: 4, arbitrary: sectionName.map((name) => `[${name}]`) },
    { weight: 4, arbitrary: fc.tuple(sectionName, fc.constantFrom(' ', '  ', '\t'), subsection).map(([name, gap, sub]) => `[${name}${gap}"${sub}"]`) },
    { weight: 1, arbitrary: fc.constantFrom('[', '[]', '[ core]', '[core ]', '[a "x" ]', '[a"x"]', '[a_b]', '[a "x', '[\u00e9]', '[a]]', '[a "x"') },
  );
  const keyStart = fc.oneof({ weight: 30, arbitrary: fc.constantFrom('k', 'K', 'path', 'hooksPath', 'x') }, { weight: 1, arbitrary: fc.constantFrom('_', '1', '-', '\u00e9', '.') });
  const keyRest = fc.array(fc.oneof({ weight: 30, arbitrary: fc.constantFrom('a', 'Z', '9', '-') }, { weight: 1, arbitrary: fc.constantFrom('_', '.', '\u00e9') }), { maxLength: 4 });
  const key = fc.tuple(keyStart, keyRest).map(([start, rest]) => start + rest.join(''));
  const plainPart = fc.constantFrom('a', 'Z', '0', '/', '~', '.', '=', '[', ']', '\u00e9', '\u65e5\u672c', '-', ' ', '  ', '\t', '\b', '\\\\', '\\"', '\\n', '\\t', '\\b', '\\\n', '\\\r\n');
  const quotedPart = fc.array(fc.oneof(plainPart, fc.constantFrom('#', ';', '\r')), { maxLength: 4 }).map((parts) => `"${parts.join('')}"`);
  const valuePart = fc.oneof(
    { weight: 12, arbitrary: plainPart },
    { weight: 4, arbitrary: fc.constantFrom(' ', '  ', '\t', '\r') },
    { weight: 4, arbitrary: quotedPart },
    { weight: 2, arbitrary: fc.constantFrom('#', ';', ' # comment "', '\\\n  ') },
    { weight: 1, arbitrary: fc.constantFrom('"', '\\x', '\\ ', '\\r', '\\') },
  );
  const value = fc.array(valuePart, { maxLength: 8 }).map((parts) => parts.join(''));
  const separator = fc.constantFrom(' = ', '=', '\t=\t', '  =', ' =', '= ');
  const entry = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, separator, value).map(([name, equals, text]) => `${name}${equals}${text}`) },
    { weight: 1, arbitrary: fc.tuple(key, fc.constantFrom('', '', ' ', '\t', ' \r', ' x', ' # c')).map(([name, rest]) => `${name}${rest}`) },
  );
  const comment = fc.tuple(fc.constantFrom('#', ';'), fc.constantFrom('', ' comment', ' "open', ' \\', ' [x]', ' k = v')).map(([mark, text]) => mark + text);
  const line = fc.oneof(
    { weight: 3, arbitrary: header },
    { weight: 2, arbitrary: fc.tuple(header, fc.constantFrom(' ', ''), fc.oneof(entry, comment)).map((parts) => parts.join('')) },
    { weight: 16, arbitrary: entry },
    { weight: 2, arbitrary: comment },
    { weight: 1, arbitrary: fc.constantFrom('', '   ') },
    { weight: 1, arbitrary: fc.constantFrom('!bad', '= no name', '\\', '\v', '"x"') },
  );
  const lineEnd = fc.constantFrom('\n', '\n', '\r\n');
  const configuration = fc
    .tuple(
      fc.constantFrom('', '', '', '', '', '\ufeff', '\ufeff', 'partial'),
      fc.array(fc.tuple(spaces, line, lineEnd), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
    )
    .map(([start, lines, finalLineEnd]) => {
      let text = lines.map(([indent, content, end]) => indent + content + end).join('');
      if (!finalLineEnd) text = text.replace(/\r?\n$/, '');
      const body = bytesOf(start === 'partial' ? text : start + text);
      return start === 'partial' ? Buffer.concat([Buffer.from([0xef, 0xbb]), body]) : body;
    });

  it(`agrees with git on ${numRuns} generated configurations (seed ${seed})`, () => {
    let accepted = 0;
    fc.assert(
      fc.property(configuration, (bytes) => {
        expectSameAsGit(bytes);
        if (parseGitConfig(bytes).trusted) accepted += 1;
      }),
      { seed, numRuns },
    );
    console.info(`fast-check seed ${seed}: git listed ${accepted} of ${numRuns} generated configurations, refused the rest`);
    // Both kinds are exercised: configurations git lists and ones it refuses.
    expect(accepted).toBeGreaterThan(numRuns / 5);
    expect(accepted).toBeLessThan(numRuns);
  });
});
