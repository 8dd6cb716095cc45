import { spawn, type ChildProcess } from 'node:child_process';
import { startEmulator, type Emulator, type EmulatorApp } from '../emulators';

/**
 * Emulated app instances for benchmarks, hosted in a child process so that answering requests
 * does not take CPU from the service being measured (as real apps run elsewhere). An optional
 * latency on every API request stands for an app answering over a network.
 */
export interface EmulatorFleet {
  instances: { baseUrl: string; apiKey: string }[];
  /** The process hosting the emulators. */
  pid: number;
  close(): Promise<void>;
}

export async function startEmulatorFleet(app: EmulatorApp, count: number, latencyMs: number): Promise<EmulatorFleet> {
  const child: ChildProcess = spawn(process.execPath, [__filename, app, String(count), String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const instances = await new Promise<EmulatorFleet['instances']>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)));
    });
    child.once('exit', (code) => reject(new Error(`emulator fleet exited (${code})`)));
  });
  return {
    instances,
    pid: child.pid!,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function serve(app: EmulatorApp, count: number, latencyMs: number): Promise<void> {
  const emulators: Emulator[] = [];
  for (let i = 0; i < count; i++) {
    const emulator = await startEmulator({ app, apiKey: `bench-${app}-${i}-0123456789` });
    if (latencyMs > 0) emulator.faults.add({ kind: 'latency', delayMs: latencyMs });
    emulators.push(emulator);
  }
  process.stdout.write(`READY ${JSON.stringify(emulators.map((e, i) => ({ baseUrl: e.baseUrl, apiKey: `bench-${app}-${i}-0123456789` })))}\n`);
  process.once('SIGTERM', () => void Promise.all(emulators.map((e) => e.close())).then(() => process.exit(0)));
}

if (require.main === module) {
  const [app, count, latency] = process.argv.slice(2);
  void serve(app as EmulatorApp, Number(count), Number(latency));
}
