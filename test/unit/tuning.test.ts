import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DEFAULT_TUNING, describeTuning, loadTuning } from '../../src/tuning.js';

describe('tuning', () => {
  it('defaults to the segmenter defaults and a random persona', () => {
    expect(loadTuning({})).to.deep.equal(DEFAULT_TUNING);
    expect(describeTuning(loadTuning({}))).to.include({
      honeypot_persona: 'random',
      model_every_ms: 30_000,
      model_min_new_chars: 120,
    });
  });

  it('reads every knob from the environment', () => {
    const t = loadTuning({
      VOICE_VAD_MODE: '3',
      VOICE_VAD_HANGOVER_MS: '400',
      VOICE_VAD_ONSET_MS: '80',
      VOICE_UTTERANCE_MIN_SPEECH_MS: '150',
      VOICE_UTTERANCE_MAX_MS: '8000',
      VOICE_HONEYPOT_PERSONA: 'grandma',
      VOICE_HONEYPOT_ENGINE: 'Lenny',
    });
    expect(t).to.deep.equal({
      segmenter: { mode: 3, hangoverMs: 400, onsetMs: 80, minSpeechMs: 150, maxUtteranceMs: 8000 },
      persona: 'grandma',
      honeypotEngine: 'lenny',
    });
    expect(loadConfig({ VOICE_VAD_HANGOVER_MS: '900' }).tuning?.segmenter.hangoverMs).to.equal(900);
  });

  it('stops the configuration naming the variable on a bad value', () => {
    expect(() => loadConfig({ VOICE_VAD_MODE: '4' })).to.throw(ConfigError, /^VOICE_VAD_MODE: must be between 0 and 3/);
    expect(() => loadConfig({ VOICE_VAD_HANGOVER_MS: 'long' })).to.throw(
      ConfigError,
      /^VOICE_VAD_HANGOVER_MS: expected a whole number/,
    );
    expect(() => loadConfig({ VOICE_HONEYPOT_ENGINE: 'parrot' })).to.throw(
      ConfigError,
      /^VOICE_HONEYPOT_ENGINE: expected one of auto, scripted, lenny, got "parrot"/,
    );
  });
});
