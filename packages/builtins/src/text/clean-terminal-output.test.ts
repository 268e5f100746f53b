import { describe, expect, it } from 'vitest';
import { cleanTerminalOutput, unfinishedTerminalSequenceLength } from './clean-terminal-output.js';

describe('cleanTerminalOutput (a tty task as the model reads it)', () => {
  it('removes colours, titles, hyperlinks and mode switches, and keeps the text', () => {
    const raw = '\x1b]0;my title\x07\x1b[?2004h\x1b[1;31mred\x1b[0m and \x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\ \x1b(Bdone\x1b=\x1b>';
    expect(cleanTerminalOutput(raw)).toBe('red and link done');
  });

  it('turns CRLF line ends into LF and lets a lone CR overwrite the line (a progress bar ends at its last state)', () => {
    expect(cleanTerminalOutput('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(cleanTerminalOutput('10%\r20%\r100%\r\nready\r\n')).toBe('100%\nready\n');
    expect(cleanTerminalOutput('abcdef\rXY')).toBe('XYcdef');
  });

  it('applies what a line editor does within a line: backspace, cursor back and forward, to a column, erase', () => {
    expect(cleanTerminalOutput('>>> 2+x\b\x1b[K3\r\n')).toBe('>>> 2+3\n');
    expect(cleanTerminalOutput('abcdef\x1b[3D\x1b[KXYZ')).toBe('abcXYZ');
    expect(cleanTerminalOutput('abc\x1b[2CZ')).toBe('abc  Z');
    expect(cleanTerminalOutput('hello\x1b[1GJ')).toBe('Jello');
    expect(cleanTerminalOutput('gone\x1b[2Knew')).toBe('    new');
  });

  it('drops cursor moves to other lines and other control characters, keeping tabs', () => {
    expect(cleanTerminalOutput('a\x1b[2A\x1b[5;1Hb\x07\x0e\tc\x9b31md')).toBe('ab\tcd');
  });

  it('an escape cut at the end of a part is dropped, and its length is what a reader holds back', () => {
    expect(cleanTerminalOutput('text\x1b[3')).toBe('text');
    expect(unfinishedTerminalSequenceLength('text\x1b[3')).toBe(3);
    expect(unfinishedTerminalSequenceLength('text\x1b]0;tit')).toBe(7);
    expect(unfinishedTerminalSequenceLength('text\x1b')).toBe(1);
    expect(unfinishedTerminalSequenceLength('50%\r')).toBe(1);
    expect(unfinishedTerminalSequenceLength('text\x1b[31mred')).toBe(0);
    expect(unfinishedTerminalSequenceLength('plain')).toBe(0);
  });
});
