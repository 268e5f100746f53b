import { describe, expect, it } from 'vitest';
import { SeatbeltEvaluator, SeatbeltProfileError, parseSeatbeltProfile } from '../index.js';

describe('SBPL evaluator', () => {
  it('parses lists, symbols, strings with escapes and comments', () => {
    expect(parseSeatbeltProfile('; comment\n(allow file-read* (literal "/a \\"b\\"")) ; trailing\n')).toEqual([
      {
        type: 'list',
        items: [
          { type: 'symbol', name: 'allow' },
          { type: 'symbol', name: 'file-read*' },
          { type: 'list', items: [{ type: 'symbol', name: 'literal' }, { type: 'string', value: '/a "b"' }] },
        ],
      },
    ]);
  });

  it('rejects malformed text', () => {
    for (const text of ['(allow file-read*', ')', '(allow file-read* (literal "/x))', '(allow']) {
      expect(() => parseSeatbeltProfile(text), text).toThrow(SeatbeltProfileError);
    }
  });

  it('deny default, allow rules, subpath vs literal, params', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)\n(deny default)\n(allow file-read* (subpath (param "ROOT")))\n(allow file-write* (literal (param "ONE")))\n',
      { ROOT: '/ws', ONE: '/tmp/one' },
    );
    expect(evaluator.decide('file-read*', '/ws')).toBe('allow');
    expect(evaluator.decide('file-read*', '/ws/a/b')).toBe('allow');
    expect(evaluator.decide('file-read*', '/ws2')).toBe('deny');
    expect(evaluator.decide('file-read*', '/etc')).toBe('deny');
    expect(evaluator.decide('file-write*', '/tmp/one')).toBe('allow');
    expect(evaluator.decide('file-write*', '/tmp/one/x')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/a')).toBe('deny');
  });

  it('require-all, require-any and require-not combine as boolean filters', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow file-write* (require-all (subpath "/ws") (require-not (literal "/ws/.git/config")) (require-not (subpath "/ws/.git/hooks"))))(allow file-write* (require-any (literal "/dev/null") (literal "/dev/zero")))',
      {},
    );
    expect(evaluator.decide('file-write*', '/ws/.git/index.lock')).toBe('allow');
    expect(evaluator.decide('file-write*', '/ws/.git/config')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/.git/hooks')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/.git/hooks/pre-commit')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/.git/hooksx')).toBe('allow');
    expect(evaluator.decide('file-write*', '/dev/zero')).toBe('allow');
    expect(evaluator.decide('file-write*', '/dev/sda')).toBe('deny');
  });

  it('the last matching rule wins, as in SBPL, and (allow default) flips the default', () => {
    const denyLast = SeatbeltEvaluator.compile('(version 1)(deny default)(allow file-read* (subpath "/"))(deny file-read* (subpath "/secret"))', {});
    expect(denyLast.decide('file-read*', '/secret/x')).toBe('deny');
    expect(denyLast.decide('file-read*', '/public')).toBe('allow');
    const allowDefault = SeatbeltEvaluator.compile('(version 1)(allow default)(deny file-write* (subpath "/ro"))', {});
    expect(allowDefault.decide('file-write*', '/x')).toBe('allow');
    expect(allowDefault.decide('file-write*', '/ro/x')).toBe('deny');
  });

  it('a filtered rule on default applies to file operations too (default is the root of every operation)', () => {
    const evaluator = SeatbeltEvaluator.compile('(version 1)(deny default)(allow default (subpath "/open"))(deny default (literal "/open/shut"))', {});
    expect(evaluator.decide('file-read*', '/open/x')).toBe('allow');
    expect(evaluator.decide('file-write*', '/open/x')).toBe('allow');
    expect(evaluator.decide('file-write*', '/open/shut')).toBe('deny');
    expect(evaluator.decide('file-read*', '/closed')).toBe('deny');
  });

  it('ignores rules for other operations and only counts whole file families', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow process-exec)(allow mach-lookup (global-name "com.apple.x"))(allow file-read-metadata (subpath "/"))(allow file* (literal "/both"))',
      {},
    );
    expect(evaluator.decide('file-read*', '/etc')).toBe('deny');
    expect(evaluator.decide('file-read*', '/both')).toBe('allow');
    expect(evaluator.decide('file-write*', '/both')).toBe('allow');
  });

  it('refuses undefined parameters and filters outside the supported subset', () => {
    expect(() => SeatbeltEvaluator.compile('(allow file-read* (subpath (param "MISSING")))', {})).toThrow(/MISSING is not defined/);
    expect(() => SeatbeltEvaluator.compile('(allow file-read* (regex #"^/x"))', {})).toThrow(SeatbeltProfileError);
    expect(() => SeatbeltEvaluator.compile('(import "system.sb")', {})).toThrow(/unsupported top-level form/);
  });
});
