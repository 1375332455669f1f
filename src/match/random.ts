/**
 * Seeded pseudo-random source (sfc32). Rules and bots take randomness only from here, so a match
 * can be replayed from its seed and tests are deterministic.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
  }

  /** A source determined by `seed`; equal seeds give equal sequences. */
  static fromSeed(seed: number | string): Random {
    // Spread the seed over the 128-bit state with a string hash (cyrb128) so close seeds diverge.
    const text = String(seed);
    let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    const random = new Random(h1 ^ h2 ^ h3 ^ h4, h2 ^ h1, h3 ^ h1, h4 ^ h1);
    for (let i = 0; i < 12; i++) random.uint32();
    return random;
  }

  /** An independent copy that continues the same sequence. */
  clone(): Random {
    return new Random(this.a, this.b, this.c, this.d);
  }

  /** A new source seeded from this one, for handing to a bot or a sub-game. */
  fork(): Random {
    return Random.fromSeed(`${this.uint32()}:${this.uint32()}`);
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, bound). */
  int(bound: number): number {
    if (!Number.isInteger(bound) || bound <= 0) throw new RangeError(`bound must be a positive integer, got ${bound}`);
    return Math.floor(this.float() * bound);
  }

  /** 0 or 1 with equal chance. */
  bit(): 0 | 1 {
    return (this.uint32() >>> 31) as 0 | 1;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** Fisher-Yates shuffle in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

/** A fresh seed for a match, taken from the platform's entropy. */
export function freshSeed(): string {
  return globalThis.crypto.getRandomValues(new Uint32Array(2)).join('-');
}
