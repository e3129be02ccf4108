import { ensureDevKey, DEV_KEY_FILE } from '../boot.js';
import { ConfigError } from '../config.js';
import { createLogger } from '../log.js';
import { missingNodeFlags } from '../node-flags.js';
import { startNode, type VoiceNode } from '../node.js';
import { ListenError } from '../server/listen.js';
import { exitOnFatal } from './fatal.js';
import { configOrReport } from './config-arg.js';

/** `voice serve`: runs a node until SIGTERM or SIGINT, then drains and exits 0. */
export async function run(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error('voice serve takes no arguments; configure it with VOICE_* variables (see README).');
    return 2;
  }
  const config = configOrReport();
  if (!config) return 2;
  const log = createLogger(config.logLevel);
  exitOnFatal(log);
  let node: VoiceNode;
  try {
    node = await startNode(config, log, { probeVoice: true });
  } catch (err) {
    // A setting that cannot work stops the node with one line naming the variable, like a malformed one.
    if (err instanceof ConfigError) {
      console.error(`voice: bad configuration: ${err.message}`);
      return 2;
    }
    // A port already taken is an operator's mistake: one line naming the variable, not a trace.
    log.fatal({ err }, 'cannot start');
    console.error(`voice: cannot start: ${err instanceof ListenError ? err.message : String(err)}`);
    return 1;
  }
  const missing = missingNodeFlags();
  if (missing.length > 0)
    log.info(
      { missing },
      'started without the node flags that npm start and the image pass: longer latency tails under load',
    );

  const shown = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = config.publicUrl ?? `http://${shown}:${node.port}`;
  const dev = await ensureDevKey(node.services.store, config.dataDir);
  // Human lines on stderr so they never mix with the JSON log stream on stdout.
  console.error(`voice: serving ${base}/voice (capabilities: ${base}/voice/capabilities)`);
  if (dev) {
    console.error(
      `voice: dev key${dev.created ? ' created' : ''} (${config.dataDir}/${DEV_KEY_FILE}): ${dev.key}\n` +
        `       try: curl -H 'X-Auth: ${dev.key}' ${base}/voice/personas`,
    );
  }

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    node.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return 0;
}
