import { describe, expect, it } from 'vitest';
import { fitResultBudget, joinLines } from './fit-result-budget.js';

const bytes = (text: string): number => Buffer.byteLength(text);

describe('fitResultBudget (§8.2: bash stays under 32,000 bytes by itself)', () => {
  it('puts the trailer on its own line and leaves text within the budget alone', () => {
    expect(joinLines('out\n', '[exit 0; duration 1 ms]')).toBe('out\n[exit 0; duration 1 ms]');
    expect(joinLines('out', '[exit 0; duration 1 ms]')).toBe('out\n[exit 0; duration 1 ms]');
    expect(joinLines('', '[exit 0; duration 1 ms]')).toBe('[exit 0; duration 1 ms]');
    const text = `${'\uFFFD'.repeat(100)}é`;
    expect(fitResultBudget(text, 'status')).toBe(`${text}\nstatus`);
  });

  it('shows bytes that are not UTF-8 as ? once U+FFFD would push the text over the budget', () => {
    const output = `head ${'\uFFFD'.repeat(16_384)} tail\n`;
    expect(bytes(output)).toBeGreaterThan(32_000);
    const fitted = fitResultBudget(output, '[exit 0; duration 3 ms]');
    expect(fitted).toBe(`head ${'?'.repeat(16_384)} tail\n[exit 0; duration 3 ms]`);
    expect(bytes(fitted)).toBeLessThanOrEqual(32_000);
  });

  it('cuts an oversized trailer at a character and keeps the status line', () => {
    const trailer = `[exit 1; duration 3 ms]\n[sandbox denied: ${'é'.repeat(20_000)}]`;
    const fitted = fitResultBudget('x'.repeat(16_000), trailer, 32_000);
    expect(bytes(fitted)).toBeLessThanOrEqual(32_000);
    expect(fitted.startsWith(`${'x'.repeat(16_000)}\n[exit 1; duration 3 ms]\n[sandbox denied: éé`)).toBe(true);
    expect(fitted.endsWith('é…')).toBe(true);
  });
});
