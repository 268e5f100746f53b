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

  it('a family query is allow only when every member is; a member rule covers only that member', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow process-exec)(allow mach-lookup (global-name "com.apple.x"))(allow file-read-metadata (subpath "/"))(allow file* (literal "/both"))(allow file-write-data (literal "/dev/null"))',
      {},
    );
    expect(evaluator.decide('file-read*', '/etc')).toBe('deny');
    expect(evaluator.decide('file-read-metadata', '/etc')).toBe('allow');
    expect(evaluator.decide('file-read*', '/both')).toBe('allow');
    expect(evaluator.decide('file-write*', '/both')).toBe('allow');
    expect(evaluator.decide('file-write-data', '/dev/null')).toBe('allow');
    expect(evaluator.decide('file-write*', '/dev/null')).toBe('deny');
    expect(evaluator.decideQuery('process-exec', {})).toBe('allow');
    expect(evaluator.decideQuery('mach-lookup', { name: 'com.apple.x' })).toBe('allow');
    expect(evaluator.decideQuery('mach-lookup', { name: 'com.apple.y' })).toBe('deny');
  });

  it('regex filters: #"…" literals keep their backslashes, parameters and strings are patterns too', () => {
    const [rule] = parseSeatbeltProfile('(allow file-read* (regex #"^/a\\.b$"))');
    expect(rule).toEqual({
      type: 'list',
      items: [
        { type: 'symbol', name: 'allow' },
        { type: 'symbol', name: 'file-read*' },
        { type: 'list', items: [{ type: 'symbol', name: 'regex' }, { type: 'regex', source: '^/a\\.b$' }] },
      ],
    });
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow file-read* (regex #"^/a\\.b$"))(allow file-write* (require-all (subpath "/ws") (require-not (regex (param "P")))))',
      { P: '^/ws/\\.[gG][iI][tT](/|$)' },
    );
    expect(evaluator.decide('file-read*', '/a.b')).toBe('allow');
    expect(evaluator.decide('file-read*', '/axb')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/.GIT/config')).toBe('deny');
    expect(evaluator.decide('file-write*', '/ws/.gitx')).toBe('allow');
    expect(() => SeatbeltEvaluator.compile('(allow file-read* (regex (param "P")))', { P: '([' })).toThrow(/invalid pattern/);
  });

  it('vnode-type, extension, target and name filters match only when the query carries that subject', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow file-write-data (require-all (literal "/dev/null") (vnode-type CHARACTER-DEVICE)))(allow file-ioctl (require-all (regex #"^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))(allow signal (target same-sandbox))(allow sysctl-read (sysctl-name "hw.ncpu") (sysctl-name-prefix "kern.proc.pid."))(allow ipc-posix-shm-read-data (ipc-posix-name-regex #"^/K[0-9]+$") (ipc-posix-name-prefix "apple."))',
      {},
    );
    expect(evaluator.decide('file-write-data', '/dev/null', { vnodeType: 'CHARACTER-DEVICE' })).toBe('allow');
    expect(evaluator.decide('file-write-data', '/dev/null', { vnodeType: 'REGULAR-FILE' })).toBe('deny');
    expect(evaluator.decide('file-write-data', '/dev/null')).toBe('deny');
    expect(evaluator.decide('file-ioctl', '/dev/ttys001', { extensions: ['com.apple.sandbox.pty'] })).toBe('allow');
    expect(evaluator.decide('file-ioctl', '/dev/ttys001')).toBe('deny');
    expect(evaluator.decideQuery('signal', { target: 'same-sandbox' })).toBe('allow');
    expect(evaluator.decideQuery('signal', {})).toBe('deny');
    expect(evaluator.decideQuery('sysctl-read', { name: 'hw.ncpu' })).toBe('allow');
    expect(evaluator.decideQuery('sysctl-read', { name: 'hw.ncpu2' })).toBe('deny');
    expect(evaluator.decideQuery('sysctl-read', { name: 'kern.proc.pid.7' })).toBe('allow');
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: '/K12' })).toBe('allow');
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: 'apple.x' })).toBe('allow');
    expect(evaluator.decideQuery('ipc-posix-shm-read-data', { name: '/other' })).toBe('deny');
  });

  it('a move is unlink of the source name and create of the destination name; nothing below is checked', () => {
    const evaluator = SeatbeltEvaluator.compile(
      '(version 1)(deny default)(allow file-write* (require-all (subpath "/ws") (require-not (subpath "/ws/.git/hooks"))))(allow file-write-create (literal "/out/new"))',
      {},
    );
    // Exactly the hole of protecting by name only: the hooks are protected, the folder above them moves.
    expect(evaluator.decideRename('/ws/.git', '/ws/.g')).toBe('allow');
    expect(evaluator.decideRename('/ws/.git/hooks', '/ws/h')).toBe('deny');
    expect(evaluator.decideRename('/ws/a', '/ws/.git/hooks')).toBe('deny');
    expect(evaluator.decideRename('/ws/a', '/out/new')).toBe('allow');
    expect(evaluator.decideRename('/out/new', '/ws/a')).toBe('deny');
  });

  it('refuses undefined parameters and filters outside the supported subset', () => {
    expect(() => SeatbeltEvaluator.compile('(allow file-read* (subpath (param "MISSING")))', {})).toThrow(/MISSING is not defined/);
    expect(() => SeatbeltEvaluator.compile('(allow file-read* (iokit-registry-entry-class "X"))', {})).toThrow(SeatbeltProfileError);
    expect(() => SeatbeltEvaluator.compile('(allow mach-lookup (xpc-service-name "X"))', {})).toThrow(/unsupported filter/);
    expect(() => SeatbeltEvaluator.compile('(import "system.sb")', {})).toThrow(/unsupported top-level form/);
  });
});
