import { ConfigError, loadConfig, type Config } from '../config.js';

/** Loads the config, or prints which variable is wrong and returns null (the caller exits non-zero). */
export function configOrReport(env: NodeJS.ProcessEnv = process.env): Config | null {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`voice: bad configuration: ${err.message}`);
      return null;
    }
    throw err;
  }
}
