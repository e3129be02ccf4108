/*
 * The providers inside the final analysis: a model verdict combines with the rules, and a provider
 * failure leaves the rules' verdict standing while the error is reported.
 */
import { expect } from 'chai';
import { finalAnalysis } from '../../pipelines/final-analysis.js';
import { loadConfig } from '../../src/config.js';
import { createBedrockProvider } from '../../src/providers/llm/bedrock.js';
import { bedrockConnection } from '../../src/providers/llm/index.js';
import { createLocalProvider } from '../../src/providers/llm/local/provider.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { ModelInput } from '../../src/providers/llm/types.js';
import { startBedrockServer, type LocalServer } from '../fixtures/llm-servers/bedrock.js';

const CALLER =
  'This is the fraud department of your bank. Someone is using your card right now. ' +
  'Read me the six digit verification code we just texted you, and do not tell anyone at the branch.';

const input: ModelInput = {
  utterances: [
    { role: 'caller', speaker: 'caller', text: CALLER, at: 0 },
    { role: 'callee', speaker: 'callee', text: 'Okay, hold on.', at: 1 },
  ],
  callerText: CALLER,
  product: 'scan',
};

describe('model providers in the final analysis', () => {
  let server: LocalServer | undefined;
  afterEach(async () => server?.close());

  it('the embedded model and the rules make one combined verdict', async () => {
    const { verdict } = await finalAnalysis(input, createLocalProvider(), new AbortController().signal);
    expect(verdict.source).to.equal('combined');
    expect(verdict.level).to.be.oneOf(['likely_scam', 'scam']);
    expect(verdict.category).to.equal('Bank/Credit Card Company Imposter');
    expect(verdict.tactics).to.include('otp_request');
    expect(verdict.summary).to.be.a('string');
  });

  it('a throttled Bedrock leaves the rules verdict and reports the provider message', async () => {
    server = await startBedrockServer([
      { kind: 'error', status: 429, type: 'ThrottlingException', message: 'Rate exceeded' },
    ]);
    const config = loadConfig({ VOICE_LLM: 'bedrock' });
    const llm = createBedrockProvider({
      ...bedrockConnection(config),
      client: {
        endpoint: server.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'x' },
      },
    });
    const errors: Error[] = [];
    const { verdict } = await finalAnalysis(input, llm, new AbortController().signal, (e) => errors.push(e));
    expect(verdict.source).to.equal('heuristic');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(ProviderError);
    expect(errors[0]!.message).to.include('Rate exceeded');
    await llm.close?.();
  });
});
