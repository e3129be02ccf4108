import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, FEATURES, loadConfig } from '../../src/config.js';

function failsOn(env: Record<string, string>, variable: string, pattern?: RegExp): void {
  let err: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    err = e;
  }
  expect(err, `expected ${variable} to be refused`).to.be.instanceOf(ConfigError);
  expect((err as ConfigError).variable).to.equal(variable);
  expect((err as Error).message).to.match(new RegExp(`^${variable}: `));
  if (pattern) expect((err as Error).message).to.match(pattern);
}

describe('config', () => {
  it('has working embedded defaults with no environment at all', () => {
    const c = loadConfig({});
    expect(c.host).to.equal('0.0.0.0');
    expect(c.port).to.equal(8080);
    expect(c.dataDir).to.equal(path.resolve('./data'));
    expect(c.mongodbUrl).to.equal(undefined);
    expect(c.maxSessions).to.equal(200);
    expect([...c.features]).to.deep.equal([...FEATURES]);
    expect(c.bootstrapKeys).to.deep.equal([]);
    expect(c.stt).to.equal('auto');
    expect(c.llm).to.equal('local');
    expect(c.tts).to.equal('espeak');
    expect(c.sipPort).to.equal(5080);
    expect(c.sipEnabled).to.equal(true);
    // A 30 s orchestrator grace (Kubernetes) holds the drain plus the socket close and the store close.
    expect(c.drainSeconds).to.equal(20);
    expect(c.sessionLeaseSeconds).to.be.at.most(60);
    expect(c.rateLimitPerMinute).to.equal(600);
    expect(c.trustProxy).to.equal(false);
    expect(c.logLevel).to.equal('info');
    expect(c.metricsPort).to.equal(undefined);
    expect(c.nodeId).to.match(/:8080$/);
  });

  it('reads typed values', () => {
    const c = loadConfig({
      VOICE_PORT: '0',
      VOICE_FEATURES: 'scan, honeypot',
      VOICE_BOOTSTRAP_KEYS: 'abcdefgh:10,key.with-dots_1:0',
      VOICE_SIP_PORT: '0',
      VOICE_WEBHOOK_ALLOW_PRIVATE: 'yes',
      VOICE_LLM: 'OpenAI',
      VOICE_OPENAI_BASE_URL: 'http://127.0.0.1:9000/v1/',
      MONGODB_URL: 'mongodb://db:27017/voice',
      VOICE_NODE_ID: 'node-a',
      VOICE_RETENTION_DAYS: '90',
    });
    expect(c.port).to.equal(0);
    expect([...c.features]).to.deep.equal(['scan', 'honeypot']);
    expect(c.bootstrapKeys).to.deep.equal([
      { key: 'abcdefgh', credits: 10 },
      { key: 'key.with-dots_1', credits: 0 },
    ]);
    expect(c.sipEnabled).to.equal(false);
    expect(c.webhookAllowPrivate).to.equal(true);
    expect(c.llm).to.equal('openai');
    expect(c.openaiBaseUrl).to.equal('http://127.0.0.1:9000/v1');
    expect(c.mongodbUrl).to.equal('mongodb://db:27017/voice');
    expect(c.nodeId).to.equal('node-a');
    expect(c.retentionDays).to.equal(90);
    expect(loadConfig({}).retentionDays).to.equal(undefined);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ VOICE_PORT: '  ' }).port).to.equal(8080);
  });

  describe('fails fast naming the variable', () => {
    it('numbers', () => {
      failsOn({ VOICE_PORT: 'eighty' }, 'VOICE_PORT', /whole number/);
      failsOn({ VOICE_PORT: '70000' }, 'VOICE_PORT', /between 0 and 65535/);
      failsOn({ VOICE_MAX_SESSIONS: '0' }, 'VOICE_MAX_SESSIONS');
      failsOn({ VOICE_SIP_PORT: '-1' }, 'VOICE_SIP_PORT');
      failsOn({ VOICE_DRAIN_SECONDS: '1.5' }, 'VOICE_DRAIN_SECONDS');
      failsOn({ VOICE_RATE_LIMIT: '0' }, 'VOICE_RATE_LIMIT');
      failsOn({ VOICE_SIP_RTP_TIMEOUT: 'x' }, 'VOICE_SIP_RTP_TIMEOUT');
      failsOn({ VOICE_METRICS_PORT: 'x' }, 'VOICE_METRICS_PORT');
      failsOn({ VOICE_RETENTION_DAYS: '0' }, 'VOICE_RETENTION_DAYS', /between 1 and 36500/);
      failsOn({ VOICE_RETENTION_DAYS: 'a year' }, 'VOICE_RETENTION_DAYS', /whole number/);
    });

    it('choices', () => {
      failsOn({ VOICE_STT: 'google' }, 'VOICE_STT', /auto, aws, whisper, sphinx, none/);
      failsOn({ VOICE_LLM: 'gpt' }, 'VOICE_LLM');
      failsOn({ VOICE_TTS: 'say' }, 'VOICE_TTS');
      failsOn({ VOICE_LOG_LEVEL: 'loud' }, 'VOICE_LOG_LEVEL');
      failsOn({ VOICE_FEATURES: 'scan,fax' }, 'VOICE_FEATURES', /"fax"/);
      failsOn({ VOICE_WEBHOOK_ALLOW_PRIVATE: 'maybe' }, 'VOICE_WEBHOOK_ALLOW_PRIVATE');
      failsOn({ VOICE_TRUST_PROXY: 'sometimes' }, 'VOICE_TRUST_PROXY');
    });

    it('URLs', () => {
      failsOn({ VOICE_PUBLIC_URL: 'not a url' }, 'VOICE_PUBLIC_URL', /not a URL/);
      failsOn({ VOICE_PUBLIC_URL: 'ftp://x' }, 'VOICE_PUBLIC_URL', /http or https/);
      failsOn({ MONGODB_URL: 'http://db' }, 'MONGODB_URL');
      failsOn({ VOICE_OPENAI_BASE_URL: 'nope' }, 'VOICE_OPENAI_BASE_URL');
      failsOn({ VOICE_WHISPER_URL: 'nope' }, 'VOICE_WHISPER_URL');
    });

    it('transcription server model and key, without echoing the key', () => {
      expect(loadConfig({})).to.include({ whisperModel: 'whisper-1' });
      expect(loadConfig({}).whisperApiKey).to.equal(undefined);
      expect(
        loadConfig({ VOICE_WHISPER_MODEL: 'Systran/faster-whisper-small', VOICE_WHISPER_API_KEY: 'sk-abc' }),
      ).to.include({
        whisperModel: 'Systran/faster-whisper-small',
        whisperApiKey: 'sk-abc',
      });
      failsOn({ VOICE_WHISPER_MODEL: 'large v3' }, 'VOICE_WHISPER_MODEL', /without spaces/);
      failsOn({ VOICE_WHISPER_MODEL: 'x'.repeat(201) }, 'VOICE_WHISPER_MODEL');
      failsOn({ VOICE_WHISPER_API_KEY: 'sk secret\u00e9' }, 'VOICE_WHISPER_API_KEY');
      try {
        loadConfig({ VOICE_WHISPER_API_KEY: 'sk secret' });
      } catch (e) {
        expect((e as Error).message).not.to.include('secret');
      }
    });

    it('embedded recogniser: calls at once and search', () => {
      expect(loadConfig({})).to.include({ sphinxSearch: 'accurate' });
      expect(loadConfig({}).sttMaxCalls).to.be.greaterThan(0);
      expect(loadConfig({ VOICE_STT_MAX_CALLS: '6', VOICE_SPHINX_SEARCH: 'fast' })).to.include({
        sttMaxCalls: 6,
        sphinxSearch: 'fast',
      });
      failsOn({ VOICE_STT_MAX_CALLS: '0' }, 'VOICE_STT_MAX_CALLS');
      failsOn({ VOICE_STT_MAX_CALLS: 'six' }, 'VOICE_STT_MAX_CALLS');
      failsOn({ VOICE_SPHINX_SEARCH: 'turbo' }, 'VOICE_SPHINX_SEARCH', /accurate, fast/);
    });

    it('bootstrap keys, without echoing them', () => {
      for (const bad of ['short:1', 'abcdefgh', 'abcdefgh:x', 'bad key!:1']) {
        failsOn({ VOICE_BOOTSTRAP_KEYS: bad }, 'VOICE_BOOTSTRAP_KEYS');
        try {
          loadConfig({ VOICE_BOOTSTRAP_KEYS: bad });
        } catch (e) {
          expect((e as Error).message).not.to.include(bad.split(':')[0]);
        }
      }
    });
  });
});
