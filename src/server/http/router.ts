import type { Route } from '../types.js';

/** A compiled route pattern: literal segments and `:name` captures. */
interface Compiled {
  route: Route;
  segments: ReadonlyArray<{ literal: string } | { param: string }>;
}

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/**
 * Matches paths against the routes in a fixed order: a literal segment beats a capture, so
 * `/voice/sessions/recent` (if it ever exists) wins over `/voice/sessions/:id` wherever it is listed.
 */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    const seen = new Set<string>();
    this.compiled = routes.map((route) => {
      const id = `${route.method} ${route.path}`;
      if (seen.has(id)) throw new Error(`duplicate route ${id}`);
      seen.add(id);
      return {
        route,
        segments: split(route.path).map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s })),
      };
    });
    // Most literal segments first, so specific routes win over captures.
    this.compiled.sort((a, b) => literalRank(b) - literalRank(a));
  }

  match(method: string, path: string): Match {
    const parts = split(path);
    const allowed: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      allowed.push(c.route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed: [...new Set(allowed)] } : { kind: 'none' };
  }
}

function literalRank(c: Compiled): number {
  // Weight earlier literals more: /a/b/:c beats /a/:b/c.
  return c.segments.reduce((n, s, i) => n + ('literal' in s ? 2 ** (16 - Math.min(i, 15)) : 0), 0);
}

function matchSegments(segments: Compiled['segments'], parts: readonly string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return null;
    } else {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return null;
      }
      params[seg.param] = value;
    }
  }
  return params;
}
