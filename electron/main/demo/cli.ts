/**
 * Runs the demo voice-agent service in a terminal: `npm run demo-server [-- --port N] [-- --api-key K]`.
 * Prints the base URL, the API key, a curl example and the seeded interaction SIDs, then serves until Ctrl-C.
 */
import * as path from 'node:path';
import { startDemoServer } from './server';

/** Command-line options of the demo server. */
interface CliOptions {
  port: number;
  apiKey: string | undefined;
  latencyMs: number;
}

const USAGE = 'Usage: npm run demo-server -- [--port N] [--api-key KEY] [--latency-ms N]';

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 0, apiKey: undefined, latencyMs: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value.\n${USAGE}`);
      return next;
    };
    const integer = (text: string, max: number): number => {
      const n = Number(text);
      if (!Number.isInteger(n) || n < 0 || n > max)
        throw new Error(`${flag} must be a whole number from 0 to ${max}, got "${text}".`);
      return n;
    };
    switch (flag) {
      case '--port':
        options.port = integer(value(), 65535);
        break;
      case '--api-key':
        options.apiKey = value();
        if (options.apiKey.trim() === '') throw new Error('--api-key must not be empty.');
        break;
      case '--latency-ms':
        options.latencyMs = integer(value(), 60_000);
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown option ${arg}.\n${USAGE}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const resourcesDir = path.resolve(__dirname, '../../../resources');
  const server = await startDemoServer({
    resourcesDir,
    port: options.port,
    apiKey: options.apiKey,
    latencyMs: options.latencyMs,
  });
  const width = Math.max(...server.interactions.map((i) => i.sid.length));

  console.log(`Demo voice-agent service listening.

  Base URL: ${server.baseUrl}
  API key:  ${server.apiKey}

Try:
  curl -H "Authorization: Bearer ${server.apiKey}" ${server.baseUrl}/phones

Seeded interactions:
${server.interactions.map((i) => `  ${i.sid.padEnd(width)}  ${i.label}`).join('\n')}

Press Ctrl-C to stop.`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
