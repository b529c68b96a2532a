// Exact multiplication of integer points by decimal factors (reward multipliers, tier levels).

/** The exact rational of a finite decimal number (its shortest round-trip text). */
function rational(x: number): { num: bigint; den: bigint } {
  const [mantissa, exp = '0'] = String(x).split('e');
  const [int, frac = ''] = mantissa!.split('.');
  let num = BigInt(int! + frac);
  let den = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e > 0) num *= 10n ** BigInt(e);
  else if (e < 0) den *= 10n ** BigInt(-e);
  return { num, den };
}

/**
 * `points` times every factor, rounded down once, exactly (1.15 × 100 is 115, where floating point
 * says 114.99…): an active reward multiplier and a level's `earn_multiplier` multiply.
 */
export function multiplyDown(points: number, factors: readonly number[]): number {
  let num = BigInt(points);
  let den = 1n;
  for (const f of factors) {
    if (f === 1) continue;
    const r = rational(f);
    num *= r.num;
    den *= r.den;
  }
  const q = num / den;
  return Number(num < 0n && q * den !== num ? q - 1n : q);
}
