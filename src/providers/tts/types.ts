export interface SpeechAudio {
  pcm: Int16Array;
  sampleRate: number;
}

/** Optional voice shaping; providers ignore what they cannot do. */
export interface VoiceOptions {
  /** Words per minute (eSpeak). */
  rate?: number;
  /** 0–100 (eSpeak). */
  pitch?: number;
}

/** The text-to-speech port (honeypot voice). */
export interface TextToSpeech {
  /** `<provider>:<model>`, as shown in `capabilities.tts`. */
  readonly id: string;
  /** Which of the persona's voices this provider speaks with (`espeak` or `polly`). */
  readonly voiceKind?: 'espeak' | 'polly';
  synthesize(text: string, voice: string, signal: AbortSignal, options?: VoiceOptions): Promise<SpeechAudio>;
  close?(): Promise<void>;
}
