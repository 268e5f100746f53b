import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGitInclude, parseGitConfig, readGitConfigFile } from './git-config-entries.js';
import type { GitConfigParse } from './git-config-entries.js';

function pairs(parse: GitConfigParse): [string, string | null][] {
  return parse.entries.map((entry) => [entry.key, entry.valueGiven ? entry.value : null]);
}

describe('parseGitConfig', () => {
  it('reads sections, subsections, the old dotted form, and lower-cases what git compares case-insensitively', () => {
    const text = [
      '# comment',
      '[core]',
      '\thooksPath = .husky/_',
      '\tBare',
      '[includeIf "gitdir:~/Work/"]',
      '\tpath = ~/work.gitconfig',
      '[Include]',
      'path=../project.gitconfig',
      '[branch.Main]',
      '\tremote = origin',
      '[a.B "C.d"] k = 1',
    ].join('\n');
    const parse = parseGitConfig(text);
    expect(parse.trusted).toBe(true);
    expect(parse.entries).toEqual([
      { key: 'core.hookspath', section: 'core', subsection: undefined, name: 'hookspath', value: '.husky/_', valueGiven: true },
      { key: 'core.bare', section: 'core', subsection: undefined, name: 'bare', value: 'true', valueGiven: false },
      { key: 'includeif.gitdir:~/Work/.path', section: 'includeif', subsection: 'gitdir:~/Work/', name: 'path', value: '~/work.gitconfig', valueGiven: true },
      { key: 'include.path', section: 'include', subsection: undefined, name: 'path', value: '../project.gitconfig', valueGiven: true },
      { key: 'branch.main.remote', section: 'branch', subsection: 'main', name: 'remote', value: 'origin', valueGiven: true },
      // git keeps the name it built: section `a`, subsection `b.C.d` (parse_config_key splits at the first and last dot).
      { key: 'a.b.C.d.k', section: 'a', subsection: 'b.C.d', name: 'k', value: '1', valueGiven: true },
    ]);
  });

  it('applies quotes, escapes, comments and line continuations like git', () => {
    const text = '[core]\n\thooksPath = "my hooks" # the folder\n\tpager = less \\\n  -R ; comment\n\tpath = "a\\"b\\\\c" x  \n\tq = "#;" \\t\tx\n[x] y = 1';
    expect(pairs(parseGitConfig(text))).toEqual([
      ['core.hookspath', 'my hooks'],
      ['core.pager', 'less   -R'],
      ['core.path', 'a"b\\c x'],
      ['core.q', '#; \t x'],
      ['x.y', '1'],
    ]);
  });

  it('continues only values: a trailing backslash in a comment ends with the comment, and \\r\\n continues like \\n', () => {
    expect(pairs(parseGitConfig('[a]\n# comment \\\nk = 1 \\\r\n2\r\n'))).toEqual([['a.k', '1 2']]);
  });

  it('skips a UTF-8 byte order mark at the start only, and reads CRLF files', () => {
    expect(pairs(parseGitConfig(Buffer.from('\xef\xbb\xbf[core]\r\n\tpager = less\r\n', 'latin1')))).toEqual([['core.pager', 'less']]);
    expect(parseGitConfig(Buffer.from('\xef\xbb[core]\n', 'latin1')).trusted).toBe(false);
    expect(parseGitConfig('[a]k=1\n\ufeff[b]k=1').trusted).toBe(false);
  });

  it('fails closed where git stops ("bad config line"), keeping what came before', () => {
    const cases = [
      'garbage here',
      '[broken',
      '= no name',
      '[ok]\n\t!bad = 1',
      '[core ]\nhooksPath = x',
      '[ core]',
      '[core "x" ]',
      '[]',
      '[a_b]',
      '[a "x\\\n"]',
      '[a]\nk = "unclosed\n',
      '[a]\nk = bad \\x escape',
      '[a]\nk_y = 1',
      '[a]\nk\r= 1',
      '[a]\n\vk = 1',
      '[a]\nk = 1\n\\\n',
    ];
    for (const text of cases) expect(parseGitConfig(text).trusted, JSON.stringify(text)).toBe(false);
    const parse = parseGitConfig('[core]\n\thooksPath = kept\n\tfsmonitor = "open\n\tpager = after');
    expect(parse).toMatchObject({ trusted: false, line: 3 });
    expect(pairs(parse)).toEqual([['core.hookspath', 'kept']]);
  });

  it('is stricter than git for a NUL byte and for names or values that are not UTF-8', () => {
    expect(parseGitConfig('[a]\nk = x\0y\n')).toMatchObject({ trusted: false, reason: 'a NUL byte' });
    expect(parseGitConfig(Buffer.from('[a]\nk = \xe9\n', 'latin1'))).toMatchObject({ trusted: false, reason: 'a name or value that is not UTF-8' });
    expect(parseGitConfig(Buffer.from('# caf\xe9\n[a]\nk = 1\n', 'latin1')).trusted).toBe(true);
  });

  it('reports includes as entries and says which ones git follows', () => {
    const parse = parseGitConfig('[include]\npath = a\n[includeIf "onbranch:x"]\npath = b\n[include "x"]\npath = c\n[includeIf]\npath = d\n[include]\nother = e\n');
    expect(parse.entries.filter(isGitInclude).map((entry) => entry.value)).toEqual(['a', 'b']);
    expect(parseGitConfig('')).toEqual({ trusted: true, entries: [] });
  });
});

describe('readGitConfigFile', () => {
  let temp: string;
  beforeAll(() => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'ow-git-config-'));
  });
  afterAll(() => {
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('reads a missing file as empty, and distrusts a folder, a FIFO and a file too large', () => {
    expect(readGitConfigFile(path.join(temp, 'missing'))).toEqual({ trusted: true, entries: [] });
    expect(readGitConfigFile(path.join(temp, 'missing', 'below'))).toEqual({ trusted: true, entries: [] });
    fs.mkdirSync(path.join(temp, 'folder'));
    expect(readGitConfigFile(path.join(temp, 'folder'))).toMatchObject({ trusted: false, reason: 'it is not a regular file' });
    execFileSync('mkfifo', [path.join(temp, 'fifo')]);
    expect(readGitConfigFile(path.join(temp, 'fifo'))).toMatchObject({ trusted: false, reason: 'it is not a regular file' });
    fs.writeFileSync(path.join(temp, 'large'), `[core]\n${'# padding\n'.repeat(20)}`);
    expect(readGitConfigFile(path.join(temp, 'large'), undefined, 64)).toMatchObject({ trusted: false });
    expect(pairs(readGitConfigFile(path.join(temp, 'large')))).toEqual([]);
    fs.writeFileSync(path.join(temp, 'bad'), '[core]\nhooksPath = "x');
    expect(readGitConfigFile(path.join(temp, 'bad'))).toMatchObject({ trusted: false, line: 2 });
  });
});
