import { OPENAPI } from '../../api/openapi.js';
import type { Route } from '../types.js';

/** `GET /voice/openapi.json`: the HTTP API's OpenAPI 3.1 document, public like the capabilities. */
export function apiDocsRoutes(): Route[] {
  const body = JSON.stringify(OPENAPI);
  return [
    {
      method: 'GET',
      path: '/voice/openapi.json',
      auth: 'none',
      handle: async () => ({ status: 200, text: body, contentType: 'application/json; charset=utf-8' }),
    },
  ];
}
