import { expect } from 'chai';
import { playedText } from '../../../src/honeypot/played.js';

describe('honeypot: the part of a line that was played', () => {
  const line = 'Oh dear, I was just about to make some tea, who is calling please?';

  it('is the whole line once all its audio went out', () => {
    expect(playedText(line, 1000, 1000)).to.equal(line);
    expect(playedText(line, 2000, 1000)).to.equal(line);
  });

  it('is the whole words within the share of the audio sent, marked as cut off', () => {
    expect(playedText(line, 500, 1000)).to.equal('Oh dear, I was just about to make…');
    expect(playedText(line, 150, 1000)).to.equal('Oh dear…');
  });

  it('is nothing when not one whole word went out', () => {
    expect(playedText(line, 10, 1000)).to.equal('');
    expect(playedText(line, 0, 1000)).to.equal('');
  });
});
