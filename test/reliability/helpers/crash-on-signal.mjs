// Preloaded into a node process (NODE_OPTIONS=--import) by the crash tests: on SIGUSR2 it throws out of
// every handler, or leaves a rejected promise unhandled, as a bug in the node's own code would.
process.on('SIGUSR2', () => {
  if (process.env.CRASH_KIND === 'rejection') void Promise.reject(new Error('planted rejection'));
  else
    setImmediate(() => {
      throw new Error('planted exception');
    });
});
