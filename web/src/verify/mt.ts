/**
 * The format 1 bot generator (docs/protocol.md, "Bot moves"): MT19937 as Matsumoto and
 * Nishimura's `mt19937ar.c` (`init_by_array`, `genrand_int32`), seeded the way CPython seeds
 * `random.Random` with an integer, and CPython's `randrange` for `n < 2^32`.
 */

import { hmacSha256 } from "./rng";
import { utf8 } from "./json";

const N = 624;
const M = 397;

/** An MT19937 generator. */
export class MersenneTwister {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  /** Seeded by `init_by_array(key)` (which starts from `init_genrand(19650218)`). */
  constructor(key: readonly number[]) {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    const keyLength = key.length;
    for (let k = N > keyLength ? N : keyLength; k > 0; k--) {
      const prev = (mt[i - 1] ?? 0) ^ ((mt[i - 1] ?? 0) >>> 30);
      mt[i] = ((mt[i] ?? 0) ^ Math.imul(prev, 1664525)) + (key[j] ?? 0) + j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] ?? 0;
        i = 1;
      }
      if (j >= keyLength) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = (mt[i - 1] ?? 0) ^ ((mt[i - 1] ?? 0) >>> 30);
      mt[i] = ((mt[i] ?? 0) ^ Math.imul(prev, 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] ?? 0;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private initGenrand(seed: number): void {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = (mt[i - 1] ?? 0) ^ ((mt[i - 1] ?? 0) >>> 30);
      mt[i] = Math.imul(prev, 1812433253) + i;
    }
    this.index = N;
  }

  /** The next 32-bit output. */
  genrandInt32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = ((mt[k] ?? 0) & 0x80000000) | ((mt[(k + 1) % N] ?? 0) & 0x7fffffff);
        mt[k] = (mt[(k + M) % N] ?? 0) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++] ?? 0;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** CPython's `randrange(n)` for `1 <= n < 2^32`: rejection on the top bits. */
  randrange(n: number): number {
    if (n < 1 || n >= 2 ** 32) throw new RangeError("randrange out of the format 1 range");
    const bits = Math.floor(Math.log2(n)) + 1;
    for (;;) {
      const r = this.genrandInt32() >>> (32 - bits);
      if (r < n) return r;
    }
  }
}

/** The key words of a big-endian integer: its 32-bit words, least significant first. */
export function keyWords(bytes: Uint8Array): number[] {
  let x = 0n;
  for (const b of bytes) x = (x << 8n) | BigInt(b);
  const words: number[] = [];
  do {
    words.push(Number(x & 0xffffffffn));
    x >>= 32n;
  } while (x > 0n);
  return words;
}

/** The message of `bot_rng(seed, seat, version)`. */
export function botMessage(seat: number, version: number): string {
  return `bot:${seat}:${version}`;
}

/** `bot_rng(seed, seat, version)`: the format 1 generator a bot got. */
export async function botRng(seed: Uint8Array, seat: number, version: number): Promise<MersenneTwister> {
  const [digest] = await hmacSha256(seed, [utf8(botMessage(seat, version))]);
  return new MersenneTwister(keyWords(digest ?? new Uint8Array(32)));
}
