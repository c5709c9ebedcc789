// Entry of `npm run start:browser` (bundled to out/main/browser.js): starts the wallet behind the loopback browser
// shell, opens it in a browser through a private redirect file (or prints its address with --no-open), and stops
// cleanly on Ctrl-C.
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { WalletError } from '../../koinos/errors.ts';
import { defaultDataDir } from '../dataDir.ts';
import { startBrowserShell } from './browserShell.ts';
import { openLaunchFile, removeLaunchFile, writeLaunchFile } from './launchFile.ts';

export const BROWSER_USAGE = `Usage: npm run start:browser -- [options]

Runs the Koinos wallet in your browser: the same wallet as the desktop app, served on 127.0.0.1 only.
It opens your browser on a private file in the data folder that leads to the wallet; the wallet's address carries
a token for this launch only, which is never put on a command line.

Options:
  --port N        port on 127.0.0.1 (default 0: any free port)
  --data-dir D    the wallet's data folder (default ${defaultDataDir()})
  --no-open       print the wallet's address (with its token; do not share it) instead of opening a browser
  -h, --help      show this help`;

export interface BrowserShellArgs {
  port: number;
  dataDir: string;
  open: boolean;
  help: boolean;
}

/**
 * Reads the command line of the browser shell.
 * @throws WalletError INVALID_ARGUMENT for an unknown option or a port that is not 0 to 65535.
 */
export function parseBrowserShellArgs(argv: string[]): BrowserShellArgs {
  let values: { port?: string; 'data-dir'?: string; 'no-open'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-open': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (cause) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${(cause instanceof Error ? cause.message : String(cause)).replace(/\s*\n\s*/g, ' ')}; see --help`,
    );
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '0') || port > 65535) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected --port to be a number from 0 to 65535, got "${String(values.port).slice(0, 20)}"`,
    );
  }
  if (values['data-dir'] === '')
    throw new WalletError('INVALID_ARGUMENT', 'expected --data-dir to name a folder, got an empty string');
  return {
    port,
    dataDir: values['data-dir'] ?? defaultDataDir(),
    open: !values['no-open'],
    help: values.help === true,
  };
}

async function run(argv: string[]): Promise<void> {
  const args = parseBrowserShellArgs(argv);
  if (args.help) {
    console.log(BROWSER_USAGE);
    return;
  }
  // Signals are listened for before the start: one during it stops the shell once started, and one sent as soon as
  // "Press Ctrl-C to stop." is read finds its handler (a supervisor that waited for that line and sent SIGTERM could
  // come before the handler was set, and the shell died there, its lock file left behind). A second signal ends the
  // process at once.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  let stop: (() => void) | undefined;
  let stopAsked = false;
  const onSignal = (): void => {
    for (const signal of signals) process.off(signal, onSignal);
    if (stop) stop();
    else stopAsked = true;
  };
  for (const signal of signals) process.on(signal, onSignal);

  const shell = await startBrowserShell({ dataDir: args.dataDir, port: args.port });
  let launchFile: string | undefined;
  try {
    console.log(`Koinos wallet (browser shell), data in ${args.dataDir}`);
    if (args.open) {
      // The browser gets a file, not the address: a browser's command line is readable by every user (review 3, M2).
      launchFile = await writeLaunchFile(args.dataDir, shell.url);
      console.log(
        `Opening the wallet in your browser. If it does not open, open this file in your browser:\n\n  ${pathToFileURL(launchFile).href}\n`,
      );
      console.log('(or stop, and start again with --no-open to print the address instead)');
      openLaunchFile(launchFile);
    } else {
      console.log(
        `Open this address in your browser (it carries this launch's token; do not share it):\n\n  ${shell.url}\n`,
      );
    }
  } catch (error) {
    await shell.stop();
    throw error;
  }
  stop = (): void => {
    (async () => {
      if (launchFile) await removeLaunchFile(launchFile);
      await shell.stop();
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : String(error));
        process.exit(1);
      },
    );
  };
  if (stopAsked) stop();
  else console.log('Press Ctrl-C to stop.');
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  run(process.argv.slice(2)).catch((error: unknown) => {
    console.error(
      error instanceof WalletError ? error.shortMessage : error instanceof Error ? error.message : String(error),
    );
    process.exitCode = 1;
  });
}
