import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { createChatModel, createModelProvider } from '../../../src/providers/llm/index.js';

const log = createLogger('silent');

describe('model provider selection', () => {
  it('defaults to the embedded model', async () => {
    const p = await createModelProvider(loadConfig({}), log);
    expect(p?.id).to.equal('local:scamlr-v1');
  });

  it('none gives no provider; an override wins over the config (evaluation --llm)', async () => {
    expect(await createModelProvider(loadConfig({ VOICE_LLM: 'none' }), log)).to.equal(null);
    expect(await createModelProvider(loadConfig({ VOICE_LLM: 'local' }), log, { llm: 'none' })).to.equal(null);
    expect((await createModelProvider(loadConfig({ VOICE_LLM: 'none' }), log, { llm: 'local' }))?.id).to.equal(
      'local:scamlr-v1',
    );
  });

  it('builds Bedrock and OpenAI-style providers named by their model', async () => {
    const bedrock = await createModelProvider(
      loadConfig({ VOICE_LLM: 'bedrock', VOICE_BEDROCK_MODEL_ID: 'amazon.nova-lite-v1:0' }),
      log,
    );
    expect(bedrock?.id).to.equal('bedrock:amazon.nova-lite-v1:0');
    await bedrock?.close?.();
    const openai = await createModelProvider(
      loadConfig({ VOICE_LLM: 'openai', VOICE_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', VOICE_OPENAI_MODEL: 'llama3' }),
      log,
    );
    expect(openai?.id).to.equal('openai:llama3');
  });

  it('openai without a base URL is off rather than broken', async () => {
    expect(await createModelProvider(loadConfig({ VOICE_LLM: 'openai' }), log)).to.equal(null);
  });

  it('a missing model file turns model scoring off instead of failing the boot', async () => {
    expect(
      await createModelProvider(loadConfig({}), log, { local: { modelPath: '/nonexistent/model.json' } }),
    ).to.equal(null);
  });

  it('chat models exist for generative providers only', () => {
    expect(createChatModel(loadConfig({}))).to.equal(null);
    expect(createChatModel(loadConfig({ VOICE_LLM: 'none' }))).to.equal(null);
    expect(createChatModel(loadConfig({ VOICE_LLM: 'openai' }))).to.equal(null);
    expect(
      createChatModel(loadConfig({ VOICE_LLM: 'openai', VOICE_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }))?.id,
    ).to.equal('openai:default');
    expect(createChatModel(loadConfig({ VOICE_LLM: 'bedrock' }))?.id).to.match(/^bedrock:/);
  });
});
