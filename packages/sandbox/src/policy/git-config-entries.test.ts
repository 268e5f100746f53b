import { describe, expect, it } from 'vitest';
import { gitConfigEntries } from './git-config-entries.js';

describe('gitConfigEntries', () => {
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
    ].join('\n');
    expect(gitConfigEntries(text)).toEqual([
      { section: 'core', subsection: undefined, name: 'hookspath', value: '.husky/_' },
      { section: 'core', subsection: undefined, name: 'bare', value: 'true' },
      { section: 'includeif', subsection: 'gitdir:~/Work/', name: 'path', value: '~/work.gitconfig' },
      { section: 'include', subsection: undefined, name: 'path', value: '../project.gitconfig' },
      { section: 'branch', subsection: 'main', name: 'remote', value: 'origin' },
    ]);
  });

  it('applies quotes, escapes, comments and line continuations like git', () => {
    const text = '[core]\n\thooksPath = "my hooks" # the folder\n\tpager = less \\\n  -R ; comment\n\tpath = "a\\"b\\\\c" x  \n[x] y = 1';
    expect(gitConfigEntries(text).map((entry) => [entry.name, entry.value])).toEqual([
      ['hookspath', 'my hooks'],
      ['pager', 'less   -R'],
      ['path', 'a"b\\c x'],
      ['y', '1'],
    ]);
  });

  it('skips what it does not understand instead of throwing', () => {
    expect(gitConfigEntries('garbage\n[broken\n= no name\n[ok]\n\tname = value\n\t!bad = 1\n')).toEqual([
      { section: 'ok', subsection: undefined, name: 'name', value: 'value' },
    ]);
    expect(gitConfigEntries('')).toEqual([]);
  });
});
