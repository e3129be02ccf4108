/*
 * The module specifiers a TypeScript file imports: static imports (`import type` too), side-effect
 * imports, re-exports (`export … from`) and dynamic `import('…')` with a literal argument. It reads
 * tokens rather than lines, so a specifier inside a comment or an ordinary string is not an import, and
 * an import spread over several lines still is. Small on purpose: enough of the lexical grammar for
 * our own sources, not a parser.
 */

type Token = { kind: 'word' | 'punct'; text: string } | { kind: 'string'; text: string };

/** After these a `/` starts a division; after anything else (or a keyword), a regular expression. */
const ENDS_OPERAND = /^[\w$)\]}]$/;
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'case',
  'in',
  'of',
  'void',
  'delete',
  'throw',
  'yield',
  'await',
]);

function divides(last: Token | undefined): boolean {
  if (!last) return false;
  if (last.kind === 'string') return true;
  if (last.kind === 'word' && KEYWORDS_BEFORE_EXPRESSION.has(last.text)) return false;
  return ENDS_OPERAND.test(last.text.slice(-1));
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const last = (): Token | undefined => tokens[tokens.length - 1];
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith('//', i)) {
      i = lineEnd(src, i);
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === "'" || c === '"') {
      const end = quotedEnd(src, i, c);
      tokens.push({ kind: 'string', text: src.slice(i + 1, end) });
      i = end + 1;
    } else if (c === '`') {
      i = templateEnd(src, i, tokens);
    } else if (c === '/' && !divides(last())) {
      i = regexEnd(src, i);
      tokens.push({ kind: 'word', text: 're' });
    } else if (/[\w$]/.test(c)) {
      const m = /^[\w$]+/.exec(src.slice(i, i + 200))!;
      tokens.push({ kind: 'word', text: m[0] });
      i += m[0].length;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

function lineEnd(src: string, i: number): number {
  const end = src.indexOf('\n', i);
  return end < 0 ? src.length : end;
}

/** Index of the closing quote of the string opened at `i`. */
function quotedEnd(src: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < src.length && src[j] !== quote && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
  return j;
}

/**
 * Skips a template literal; a template without substitutions is kept as a string token (a dynamic
 * import may use one), the code inside `${…}` is tokenized like any other.
 */
function templateEnd(src: string, i: number, tokens: Token[]): number {
  let j = i + 1;
  let plain = true;
  while (j < src.length && src[j] !== '`') {
    if (src[j] === '\\') j += 2;
    else if (src.startsWith('${', j)) {
      plain = false;
      let depth = 1;
      const start = j + 2;
      j = start;
      while (j < src.length && depth > 0) {
        if (src[j] === '{') depth++;
        else if (src[j] === '}') depth--;
        j++;
      }
      tokens.push(...tokenize(src.slice(start, j - 1)));
    } else j++;
  }
  tokens.push(plain ? { kind: 'string', text: src.slice(i + 1, j) } : { kind: 'word', text: 'template' });
  return j + 1;
}

function regexEnd(src: string, i: number): number {
  let j = i + 1;
  let inClass = false;
  while (j < src.length && src[j] !== '\n') {
    const c = src[j]!;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
    j++;
  }
  j++;
  while (j < src.length && /[a-z]/.test(src[j]!)) j++;
  return j;
}

export interface ImportRef {
  specifier: string;
  kind: 'static' | 'side-effect' | 're-export' | 'dynamic';
}

/** Every import specifier of one file, in source order. */
export function scanImports(src: string): ImportRef[] {
  const t = tokenize(src);
  const out: ImportRef[] = [];
  const at = (k: number): Token | undefined => t[k];
  const isWord = (k: number, w: string): boolean => at(k)?.kind === 'word' && at(k)!.text === w;
  const isPunct = (k: number, p: string): boolean => at(k)?.kind === 'punct' && at(k)!.text === p;
  /**
   * The specifier of the `from` that ends the clause starting at `k`: after the braces of a `{ … }` list,
   * or within the few words of a default, namespace or `type` clause. Null when the clause has no `from`
   * (a local `export { a }`).
   */
  const fromAfter = (k: number): string | null => {
    let j = k;
    if (isPunct(j, '{')) {
      while (j < t.length && !isPunct(j, '}')) j++;
      j++;
    } else {
      while (j < t.length && !isWord(j, 'from') && !isPunct(j, ';') && at(j)?.kind !== 'string') j++;
    }
    return isWord(j, 'from') && at(j + 1)?.kind === 'string' ? at(j + 1)!.text : null;
  };
  for (let k = 0; k < t.length; k++) {
    const afterDot = isPunct(k - 1, '.');
    if (isWord(k, 'import') && !afterDot) {
      if (isPunct(k + 1, '(') && at(k + 2)?.kind === 'string' && isPunct(k + 3, ')')) {
        out.push({ specifier: at(k + 2)!.text, kind: 'dynamic' });
      } else if (at(k + 1)?.kind === 'string') {
        out.push({ specifier: at(k + 1)!.text, kind: 'side-effect' });
      } else if (!isPunct(k + 1, '(') && !isPunct(k + 1, '.')) {
        // `import type { A }`, `import A, { B }`, `import * as A`: the list, if any, comes after the words.
        let clause = k + 1;
        while (at(clause)?.kind === 'word' && !isWord(clause, 'from')) clause++;
        if (isPunct(clause, ',')) clause++;
        const spec = fromAfter(isPunct(clause, '{') ? clause : k + 1);
        if (spec !== null) out.push({ specifier: spec, kind: 'static' });
      }
    } else if (isWord(k, 'export') && !afterDot) {
      const next = isWord(k + 1, 'type') ? k + 2 : k + 1;
      if (isPunct(next, '*') || isPunct(next, '{')) {
        const spec = fromAfter(next);
        if (spec !== null) out.push({ specifier: spec, kind: 're-export' });
      }
    }
  }
  return out;
}
