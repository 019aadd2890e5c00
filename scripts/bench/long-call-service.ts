/**
 * The long-call service of the benchmark in its own process (the voice-agent API is a remote
 * server, so its work must not share the event loop with the "main process" being measured).
 *
 * Run: `node --import tsx scripts/bench/long-call-service.ts <options.json>` where the file holds
 * {@link LongCallServerOptions}. Prints one line `READY <json>` with `{baseUrl, apiKey, sids}` once
 * listening; stops on SIGTERM or when stdin closes (the parent went away).
 */
import { readFileSync } from 'node:fs';
import { startLongCallServer, type LongCallServerOptions } from '../../test/fixtures/long-call';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('Usage: long-call-service.ts <options.json>');
  const options = JSON.parse(readFileSync(file, 'utf8')) as LongCallServerOptions;
  const server = await startLongCallServer(options);
  const stop = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(
    `READY ${JSON.stringify({ baseUrl: server.baseUrl, apiKey: server.apiKey, sids: server.interactions.map((i) => i.sid) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
