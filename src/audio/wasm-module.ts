/** The shape of an Emscripten module as this code uses it: C functions plus views of its linear memory. */
export interface EmscriptenModule {
  HEAP16: Int16Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

/** The exported C functions a caller uses, by name. */
export type WithFunctions<Name extends string> = EmscriptenModule & Record<Name, (...args: number[]) => number>;

/**
 * A block of module memory that is reused between calls and only grows. The heap views are read
 * afresh on every access because memory growth replaces them.
 */
export class HeapBlock {
  ptr = 0;
  private bytes = 0;

  constructor(private readonly mod: EmscriptenModule) {}

  ensure(bytes: number): number {
    if (bytes > this.bytes) {
      if (this.ptr) this.mod._free(this.ptr);
      this.bytes = Math.max(bytes, this.bytes * 2, 64);
      this.ptr = this.mod._malloc(this.bytes);
      if (!this.ptr) throw new Error('audio: out of WASM memory');
    }
    return this.ptr;
  }

  free(): void {
    if (this.ptr) this.mod._free(this.ptr);
    this.ptr = 0;
    this.bytes = 0;
  }
}
