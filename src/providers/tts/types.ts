export interface SpeechAudio {
  pcm: Int16Array;
  sampleRate: number;
}

/** The text-to-speech port (honeypot voice). */
export interface TextToSpeech {
  /** `<provider>:<model>`, as shown in `capabilities.tts`. */
  readonly id: string;
  synthesize(text: string, voice: string, signal: AbortSignal): Promise<SpeechAudio>;
  close?(): Promise<void>;
}
