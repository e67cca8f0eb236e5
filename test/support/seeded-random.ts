/**
 * A seeded generator for randomized tests: `random(n)` is an integer in [0, n), the same sequence for the same seed.
 * A 32-bit linear congruential step whose high bits are used. The same step computed in doubles
 * (`(seed * 1103515245 + 12345) % 2 ** 31`) overflows 2^53, loses its low bits and soon gives almost only even
 * numbers, so a test drawing `% n` from it covered far less than it seemed to.
 */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed >>> 0
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 16) % n
  }
}
