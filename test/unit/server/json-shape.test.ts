import { expect } from 'chai';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_STRUCTURE } from '../../../src/server/http/json-shape.js';

const shape = (s: string) => jsonShapeProblem(Buffer.from(s));

describe('server/http/json-shape: what JSON.parse may be given', () => {
  it('lets ordinary bodies through, whatever their strings hold', () => {
    expect(shape('{"transcript":"hello","report":true,"sample_rate":8000}')).to.equal(null);
    expect(shape(`{"audio_base64":"${'A'.repeat(5_000_000)}"}`)).to.equal(null);
    // Brackets, braces and escaped quotes inside strings are text, not structure.
    expect(shape(`{"t":"${'[{'.repeat(1000)} \\"quoted\\" \\\\"}`)).to.equal(null);
    expect(shape(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).to.equal(null);
  });

  it('refuses nesting deeper than the limit, naming it', () => {
    expect(shape('['.repeat(12 * 1024 * 1024))).to.equal(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(shape(`{"a":${'{"b":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`)).to.match(/nested deeper/);
  });

  it('bounds the bytes outside strings: long arrays, whitespace, many small strings, escaped quotes', () => {
    const message = `JSON with more than ${MAX_JSON_STRUCTURE} bytes outside its strings`;
    expect(shape(`[${'1,'.repeat(MAX_JSON_STRUCTURE)}1]`)).to.equal(message);
    expect(shape(`{${' '.repeat(MAX_JSON_STRUCTURE)}}`)).to.equal(message);
    expect(shape(`[${'"a",'.repeat(MAX_JSON_STRUCTURE)}"a"]`)).to.equal(message);
    expect(shape(`["${'\\"'.repeat(MAX_JSON_STRUCTURE)}"]`)).to.equal(message);
  });

  it('leaves malformed JSON to JSON.parse', () => {
    expect(shape('{"a": "never closed')).to.equal(null);
    expect(shape('not json at all')).to.equal(null);
  });
});
