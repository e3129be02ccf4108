import { CONSOLE_JS } from '../../console/assets/app.js';
import { CONSOLE_HTML } from '../../console/assets/page.js';
import type { Services } from '../../services.js';
import { DEFAULT_TUNING, describeTuning } from '../../tuning.js';
import { ok, type Route } from '../types.js';

/** The page must not be framed and its script runs from this origin only. */
const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; img-src 'self' data:",
};

/**
 * The operator console: a static page and its module (public: they hold no data; the page asks for a
 * key and sends it with every call), and the tuning in force (key required). Its live feed is the
 * `/console/stream` socket (src/console/mount.ts).
 */
export function consoleRoutes(s: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/console',
      auth: 'none',
      handle: async () => ({
        status: 200,
        text: CONSOLE_HTML,
        contentType: 'text/html; charset=utf-8',
        headers: PAGE_HEADERS,
      }),
    },
    {
      method: 'GET',
      path: '/console/app.js',
      auth: 'none',
      handle: async () => ({
        status: 200,
        text: CONSOLE_JS,
        contentType: 'text/javascript; charset=utf-8',
        headers: { 'Cache-Control': 'no-cache' },
      }),
    },
    {
      method: 'GET',
      path: '/console/tuning',
      auth: 'header',
      handle: async () => ok({ tuning: describeTuning(s.config.tuning ?? DEFAULT_TUNING) }),
    },
  ];
}
