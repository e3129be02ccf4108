import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'RESULTS.md');
const BEGIN = '<!-- performance:begin -->';
const END = '<!-- performance:end -->';
const HEADER = `## Performance

Load benchmarks (\`npm run bench\`, \`bench/run.ts\`): each run appends its figures below with the machine, the
date, the commit and the command. Every figure is a median or a percentile over many samples. Live load comes
from a separate client process over real sockets on 127.0.0.1; speech is the replay recogniser
(\`VOICE_STT=replay\`), so the recogniser is not what is measured. Notes on the targets are at the end of the
latest full run.
`;

export function machine(): string {
  const commit = (() => {
    try {
      const sha = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
      // The results file itself is not code: a run that appends to it is still a run of the commit.
      const dirty = execSync("git status --porcelain -- src pipelines operators bench ':!bench/RESULTS.md'", {
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim();
      return dirty ? `${sha} (with uncommitted changes)` : sha;
    } catch {
      return 'unknown';
    }
  })();
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  return [
    `- machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
    `- load average at start (1 / 5 / 15 min): ${load}`,
    `- date: ${new Date().toISOString()}`,
    `- commit: ${commit}`,
  ].join('\n');
}

/** Appends one run to the performance section of RESULTS.md (created at the end of the file when absent). */
export function appendRun(markdown: string): void {
  let text = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  if (!text.includes(BEGIN)) text = `${text.trimEnd()}\n\n${BEGIN}\n${HEADER}${END}\n`;
  const at = text.indexOf(END);
  text = `${text.slice(0, at)}\n${markdown.trim()}\n\n${text.slice(at)}`;
  fs.writeFileSync(RESULTS, text);
}

export function table(head: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
