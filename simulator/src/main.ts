import { InvalidEnvError, readSimulatorEnv } from './env';
import { createSimulator } from './simulator';

// A stand-in for paid providers that accepts any key and serves a fault-injection API: never in production.
if (process.env.MEDIAGEN_MODE !== 'development') {
  console.error('simulator: refusing to start: the provider simulator only runs when MEDIAGEN_MODE=development');
  process.exit(1);
}

function readEnvOrExit() {
  try {
    return readSimulatorEnv(process.env);
  } catch (error) {
    if (!(error instanceof InvalidEnvError)) throw error;
    console.error(`simulator: ${error.message}`);
    process.exit(1);
  }
}

const { port, host, options } = readEnvOrExit();
const simulator = createSimulator(options);
const url = await simulator.listen(port, host);
simulator.app.log.info(`provider simulator listening on ${url}`);
// The openai package's Realtime client only speaks wss://: a development worker learns this port and the
// certificate made at start from GET /__sim/tls.
simulator.app.log.info(`OpenAI Realtime API on ${simulator.secureUrl.replace(/^https/, 'wss')}/v1/realtime`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    simulator.app.log.info(`${signal} received, closing`);
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('simulator: failed to close cleanly', error);
        process.exit(1);
      },
    );
  });
}
