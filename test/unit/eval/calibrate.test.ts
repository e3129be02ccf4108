import { expect } from 'chai';
import { fitCalibration, type CalibrationPoint } from '../../../src/eval/calibrate.js';

/** Expected counts of p = σ(scale·(z + bias)) on a grid of z, each point free (the ladder lets it be). */
function logistic(scale: number, bias: number, weight = 1): CalibrationPoint[] {
  const out: CalibrationPoint[] = [];
  for (let z = -1; z <= 5; z += 0.25) {
    const p = 1 / (1 + Math.exp(-scale * (z + bias)));
    for (let k = 0; k < 40; k++) out.push({ z, lo: 0, hi: 1, scam: k < Math.round(p * 40), weight });
  }
  return out;
}

describe('eval: calibration fitted through the ladder', () => {
  it('recovers a known logistic relation when the ladder leaves every score free', () => {
    const fit = fitCalibration(logistic(3, -2));
    expect(fit.scale).to.be.closeTo(3, 0.15);
    expect(fit.bias).to.be.closeTo(-2, 0.03);
    expect(fit.edge).to.equal(false);
  });

  it('is not flattened by honest calls the ladder caps, where a bare logistic fit is', () => {
    const clean = logistic(3, -2);
    // Honest calls with strong evidence that the ladder holds at suspicious (a lone phrase, a story).
    const capped = Array.from({ length: 120 }, () => ({ z: 4, lo: 0, hi: 0.45, scam: false, weight: 1 }));
    const through = fitCalibration([...clean, ...capped]);
    expect(through.scale).to.be.closeTo(3, 0.15);
    expect(through.bias).to.be.closeTo(-2, 0.03);
    // The same calls taken as free points pull the curve down: the fit the ladder protects against.
    const bare = fitCalibration([...clean, ...capped.map((p) => ({ ...p, hi: 1 }))]);
    expect(bare.scale).to.be.below(2);
  });

  it('ignores calls the ladder pins to one value, and says when the best lies on the search edge', () => {
    const pinned = Array.from({ length: 200 }, () => ({ z: 0, lo: 0.62, hi: 0.62, scam: false, weight: 1 }));
    const fit = fitCalibration([...logistic(3, -2), ...pinned]);
    expect(fit.scale).to.be.closeTo(3, 0.15);
    // A perfectly separated set wants an infinitely steep curve: the box's edge, reported.
    const separated = [
      ...Array.from({ length: 50 }, () => ({ z: 0, lo: 0, hi: 1, scam: false, weight: 1 })),
      ...Array.from({ length: 50 }, () => ({ z: 3, lo: 0, hi: 1, scam: true, weight: 1 })),
    ];
    expect(fitCalibration(separated).edge).to.equal(true);
  });
});
