import { expect } from 'chai';
import { FrameProbe } from '../../../src/observability/frame-probe.js';

describe('frame hand-off probe', () => {
  it('times every frame by default', () => {
    const probe = new FrameProbe();
    for (let i = 0; i < 5; i++) {
      probe.arrived();
      probe.handedOff();
    }
    expect(probe.handoffNs.count).to.equal(5);
  });

  it('times one frame in sampleEvery, and never pairs a hand-off with an earlier, untimed arrival', () => {
    const probe = new FrameProbe();
    probe.sampleEvery = 4;
    for (let i = 0; i < 12; i++) {
      probe.arrived();
      probe.handedOff();
    }
    expect(probe.handoffNs.count).to.equal(3);
    // Arrivals 13–16: the 16th is timed but has no hand-off (a text frame); the 17th, untimed, is handed off.
    for (let i = 0; i < 5; i++) probe.arrived();
    probe.handedOff();
    expect(probe.handoffNs.count).to.equal(3);
  });
});
