import { expect } from 'chai';
import { runHoneypotSim } from '../../bench/honeypot-sim/run.js';
import { SCAMMER_STYLES } from '../../bench/honeypot-sim/scammer.js';

describe('honeypot simulation (scripted scammers over a real socket)', function () {
  this.timeout(120_000);

  it('the embedded persona keeps scammers on the line for 10 turns or more on average, and files them', async () => {
    const { results, matrix } = await runHoneypotSim(1, { measureVoices: false });
    expect(results.length).to.be.at.least(36);
    const turns = results.reduce((n, r) => n + r.turns, 0) / results.length;
    expect(turns).to.be.at.least(10);
    expect(results.every((r) => r.filed && r.reportedNumbers === 2)).to.equal(true);
    expect(results.every((r) => r.intelFields.includes('callback_numbers'))).to.equal(true);

    // Against the fixed-loop baseline, each kind of caller stays longer with the scripted engine, and none
    // of the callers who test for a bot catches it out.
    const minutes = (engine: string, style: string) => {
      const rs = matrix.filter((r) => r.engine === engine && r.style === style);
      expect(rs.length, `${engine} ${style}`).to.be.at.least(6);
      return rs.reduce((n, r) => n + r.simulatedMinutes, 0) / rs.length;
    };
    for (const style of SCAMMER_STYLES)
      expect(minutes('scripted', style), style).to.be.greaterThan(1.5 * minutes('lenny', style));
    const caught = matrix.filter((r) => r.engine === 'scripted' && /repeat/.test(r.why));
    expect(caught.map((r) => `${r.style} ${r.scam}: ${r.why}`)).to.deep.equal([]);
  });
});
