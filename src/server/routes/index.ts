import type { Services } from '../../services.js';
import type { Route } from '../types.js';
import { apiDocsRoutes } from './api-docs.js';
import { consoleRoutes } from './console.js';
import { discoveryRoutes } from './discovery.js';
import { domainRoutes } from './domains.js';
import { healthRoutes } from './health.js';
import { numbersRoutes } from './numbers.js';
import { scanRoutes } from './scan.js';
import { sessionsRoutes } from './sessions.js';
import { vendorXmlRoutes } from './vendor-xml.js';

/**
 * Every HTTP route of a node. Paths are absolute from `{api_root}`: `{base_url}` routes start with `/voice`.
 * Add an area with one line.
 */
export function allRoutes(s: Services): Route[] {
  return [
    ...discoveryRoutes(s),
    ...healthRoutes(s),
    ...sessionsRoutes(s),
    ...vendorXmlRoutes(s),
    ...domainRoutes(s),
    ...scanRoutes(s),
    ...numbersRoutes(s),
    ...consoleRoutes(s),
    ...apiDocsRoutes(),
  ];
}
