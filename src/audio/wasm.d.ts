/* The Emscripten modules ship no typings: the parts this code drives. */
declare module '@echogarden/speex-resampler-wasm' {
  const factory: () => Promise<unknown>;
  export default factory;
}
declare module '@echogarden/fvad-wasm' {
  const factory: () => Promise<unknown>;
  export default factory;
}
declare module '@echogarden/speex-resampler-wasm/simd' {
  const factory: () => Promise<unknown>;
  export default factory;
}
