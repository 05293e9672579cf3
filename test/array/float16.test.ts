// binary16 conversions: every bit pattern round-trips, and rounding matches NumPy's.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { float16Bits, float16Value, roundToFloat16 } from '../../src/array/float16.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/float16-numpy.json', import.meta.url), 'utf8'),
) as { x: number[]; bits: number[] };

describe('float16 conversions', () => {
  test('decode then encode gives back every non-NaN pattern; NaNs encode to 0x7e00 with sign', () => {
    let checked = 0;
    for (let h = 0; h < 65536; h++) {
      const v = float16Value(h);
      const nanBits = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
      expect(Number.isNaN(v)).toBe(nanBits);
      if (nanBits) continue;
      if (float16Bits(v) !== h) expect([h, float16Bits(v)]).toEqual([h, h]);
      checked++;
    }
    expect(checked).toBe(65536 - 2 * 1023);
    expect(float16Bits(Number.NaN)).toBe(0x7e00);
    expect(float16Bits(-Number.NaN)).toBe(0xfe00);
  });

  test('decoded values are exact: 1, max, min normal, min subnormal, -0, ±inf', () => {
    expect(float16Value(0x3c00)).toBe(1);
    expect(float16Value(0x7bff)).toBe(65504);
    expect(float16Value(0x0400)).toBe(2 ** -14);
    expect(float16Value(0x0001)).toBe(2 ** -24);
    expect(Object.is(float16Value(0x8000), -0)).toBe(true);
    expect(float16Value(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(float16Value(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
  });

  test(`encoding ${fixture.x.length} doubles agrees with NumPy's float64 -> float16 cast`, () => {
    const bad: [number, number, number][] = [];
    fixture.x.forEach((x, i) => {
      const b = float16Bits(x);
      if (b !== fixture.bits[i]) bad.push([x, b, fixture.bits[i]!]);
    });
    expect(bad).toEqual([]);
  });

  test('rounding is to the nearest value, ties to even, checked against neighbours', () => {
    let seed = 7;
    const rand = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 20000; k++) {
      const x = (rand() - 0.5) * 2 ** Math.floor(rand() * 44 - 28);
      const h = float16Bits(x);
      const v = float16Value(h);
      const err = Math.abs(v - x);
      // Neighbours one ulp either side (same sign) are no closer.
      for (const n of [h - 1, h + 1]) {
        if ((n & 0x7fff) > 0x7bff || (n & 0x8000) !== (h & 0x8000)) continue;
        const e = Math.abs(float16Value(n) - x);
        expect(e >= err).toBe(true);
        if (e === err) expect(h % 2).toBe(0);
      }
      expect(roundToFloat16(x)).toBe(v);
    }
  });
});
