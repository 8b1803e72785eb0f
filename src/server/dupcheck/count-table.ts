/**
 * An open-addressing hash table from a 32-bit shingle hash to a count and the first sample
 * index it was seen in: counting document frequencies over tens of thousands of works in
 * typed arrays (a Map of millions of entries would take gigabytes).
 */
export class CountTable {
  #keys: Uint32Array;
  #counts: Uint32Array;
  #first: Uint32Array;
  #used: Uint8Array;
  #size = 0;
  #mask: number;

  constructor(capacityPow2 = 1 << 20) {
    this.#keys = new Uint32Array(capacityPow2);
    this.#counts = new Uint32Array(capacityPow2);
    this.#first = new Uint32Array(capacityPow2);
    this.#used = new Uint8Array(capacityPow2);
    this.#mask = capacityPow2 - 1;
  }

  get size() {
    return this.#size;
  }

  /** Counts `key` once, remembering `sample` if it is new. */
  add(key: number, sample: number) {
    if (this.#size * 2 >= this.#keys.length) this.#grow();
    let i = (Math.imul(key, 0x9e3779b1) >>> 0) & this.#mask;
    while (this.#used[i]) {
      if (this.#keys[i] === key) {
        this.#counts[i]++;
        return;
      }
      i = (i + 1) & this.#mask;
    }
    this.#used[i] = 1;
    this.#keys[i] = key;
    this.#counts[i] = 1;
    this.#first[i] = sample;
    this.#size++;
  }

  /** Every key counted at least `min` times. */
  *atLeast(min: number): Generator<{ key: number; count: number; first: number }> {
    for (let i = 0; i < this.#keys.length; i++)
      if (this.#used[i] && this.#counts[i] >= min) yield { key: this.#keys[i], count: this.#counts[i], first: this.#first[i] };
  }

  #grow() {
    const keys = this.#keys;
    const counts = this.#counts;
    const first = this.#first;
    const used = this.#used;
    const cap = keys.length * 2;
    this.#keys = new Uint32Array(cap);
    this.#counts = new Uint32Array(cap);
    this.#first = new Uint32Array(cap);
    this.#used = new Uint8Array(cap);
    this.#mask = cap - 1;
    for (let j = 0; j < keys.length; j++) {
      if (!used[j]) continue;
      let i = (Math.imul(keys[j], 0x9e3779b1) >>> 0) & this.#mask;
      while (this.#used[i]) i = (i + 1) & this.#mask;
      this.#used[i] = 1;
      this.#keys[i] = keys[j];
      this.#counts[i] = counts[j];
      this.#first[i] = first[j];
    }
  }
}
