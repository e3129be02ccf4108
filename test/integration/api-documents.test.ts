import SwaggerParser from '@apidevtools/swagger-parser';
import { Parser, type Diagnostic } from '@asyncapi/parser';
import { expect } from 'chai';
import fs from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The API documents checked by the validators their users run: the served OpenAPI 3.1 document with
 * swagger-parser (schema and spec rules, every $ref resolved), docs/asyncapi.yaml with the AsyncAPI parser.
 */

type Operations = Record<string, Record<string, { operationId?: string }>>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Spectral severities: 0 error, 1 warning (2 information and 3 hint are advice). */
const problems = (diagnostics: Diagnostic[]) =>
  diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`);

describe('API documents, validated', function () {
  this.timeout(60_000);
  let server: TestServer;
  let served: Record<string, unknown>;
  before(async () => {
    server = await startTestServer();
    served = (await (await fetch(`${server.url}/voice/openapi.json`)).json()) as Record<string, unknown>;
  });
  after(async () => server?.close());

  it('the served OpenAPI document passes swagger-parser validation', async () => {
    const api = await SwaggerParser.validate(structuredClone(served) as never);
    expect((api as { openapi?: string }).openapi).to.equal('3.1.0');
  });

  it('names every operation with a unique operationId', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(served.paths as Operations)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        expect(op.operationId, `${method.toUpperCase()} ${path} operationId`).to.be.a('string').and.match(/^\w+$/);
        ids.push(op.operationId!);
      }
    }
    expect(ids.length).to.be.above(10);
    expect(new Set(ids).size, 'operationIds are unique').to.equal(ids.length);
  });

  it('swagger-parser rejects a broken copy (the check can fail)', async () => {
    const broken = structuredClone(served) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    broken.paths['/voice/capabilities']!.get!.responses = { 200: { content: {} } }; // no description
    const err = await SwaggerParser.validate(broken as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(Error);
  });

  it('docs/asyncapi.yaml parses with the AsyncAPI parser without errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(fs.readFileSync('docs/asyncapi.yaml', 'utf8'));
    expect(problems(diagnostics)).to.deep.equal([]);
    expect(document, 'parsed document').to.not.equal(undefined);
    const channels = document!
      .channels()
      .all()
      .map((c) => c.address());
    expect(channels).to.include.members(['/voice/filter/stream', '/voice/honeypot/stream']);
  });

  it('the AsyncAPI parser reports a broken copy (the check can fail)', async () => {
    const text = fs
      .readFileSync('docs/asyncapi.yaml', 'utf8')
      .replace(/\$ref: '#\/components\/messages\//, "$ref: '#/nowhere/");
    const { document, diagnostics } = await new Parser().parse(text);
    expect(document).to.equal(undefined);
    expect(problems(diagnostics)).to.not.deep.equal([]);
  });
});
