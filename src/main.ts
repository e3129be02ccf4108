// Process entry (`node dist/src/main.js <command>`); the same commands as the `voice` bin.
import { main } from './cli/main.js';

process.exitCode = await main(process.argv.slice(2));
