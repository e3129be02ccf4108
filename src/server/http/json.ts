import type { HttpRequest } from '../types.js';
import { HttpError } from '../types.js';
import { jsonShapeProblem } from './json-shape.js';

/**
 * Parses a JSON object body. Errors name `body`, as every 400 names the field or cause.
 * Routes that take JSON call this; an empty body is an empty object only when `allowEmpty`.
 */
export function readJson(req: Pick<HttpRequest, 'body'>, allowEmpty = false): Record<string, unknown> {
  if (req.body.length === 0) {
    if (allowEmpty) return {};
    throw new HttpError(400, 'body: a JSON object is required');
  }
  const problem = jsonShapeProblem(req.body);
  if (problem) throw new HttpError(400, `body: ${problem}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'body: not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'body: must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
