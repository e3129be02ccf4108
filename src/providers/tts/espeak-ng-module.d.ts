/* The eSpeak NG WebAssembly build ships no typings; only what the worker uses is declared. */
declare module '@echogarden/espeak-ng-emscripten' {
  interface EspeakNGWorker {
    set_voice(name: string): number;
    set_rate(wpm: number): void;
    set_pitch(pitch: number): void;
    get_samplerate(): number;
    synthesize(text: string, cb: (samples: Int16Array, events: unknown[]) => boolean | number): void;
  }
  const init: () => Promise<{ eSpeakNGWorker: new () => EspeakNGWorker }>;
  export default init;
}
