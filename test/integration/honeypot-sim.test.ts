import { expect } from 'chai';
import { runHoneypotSim } from '../../bench/honeypot-sim/run.js';

describe('honeypot simulation (scripted scammers over a real socket)', function () {
  this.timeout(120_000);

  it('the embedded persona keeps scammers on the line for 10 turns or more on average, and files them', async () => {
    const { results } = await runHoneypotSim(1, { measureVoices: false });
    expect(results.length).to.be.at.least(36);
    const turns = results.reduce((n, r) => n + r.turns, 0) / results.length;
    expect(turns).to.be.at.least(10);
    expect(results.every((r) => r.filed && r.reportedNumbers === 2)).to.equal(true);
    expect(results.every((r) => r.intelFields.includes('callback_numbers'))).to.equal(true);
  });
});
