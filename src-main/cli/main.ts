// Entry of the `koinos-wallet` command line tool (bundled to out/main/cli.js): dispatches to the key, tx and devnet
// commands, prints usage, and turns every error into one line on stderr and an exit code (1 error, 2 usage).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json' with { type: 'json' };
import { WalletError } from '../koinos/errors.ts';
import { EXIT_OK, PROCESS_IO, UsageError, printText, reportError, shownWord, withCliIo, type CliIo } from './io.ts';
import { KEY_USAGE, keyCommand } from './keyCommands.ts';
import { TX_USAGE, txCommand } from './txCommands.ts';
import { CHAIN_USAGE } from './chainUsage.ts';

/** The version of this package (package.json), printed by `--version`. */
export const VERSION: string = packageJson.version;

/** The top-level `--help` text. */
export const USAGE = `Usage: koinos-wallet <command> [options]
       koinos-wallet --version

Offline tools for Koinos keys and transactions, and a local development node.
Output is JSON on stdout. Errors are one line on stderr, with exit code 1 (2 for a usage error).
Private keys are read from a file or stdin only, never from an argument.

${KEY_USAGE}

${TX_USAGE}

${CHAIN_USAGE}

Contracts:
  koinos-wallet contract upload|read|call|abi ...
      Uploads a WebAssembly contract with its ABI, reads and calls its methods by name with JSON arguments
      (see koinos-wallet contract --help).

Local node:
  koinos-wallet devnet ...
      Runs a local Koinos development node (see koinos-wallet devnet --help).

Run "koinos-wallet key --help" or "koinos-wallet tx --help" for one group of commands.`;

async function devnet(argv: string[]): Promise<number> {
  // Loaded on demand so that the key and tx commands never load the node and its storage.
  let mod: { devnetCommand(argv: string[]): Promise<number> };
  try {
    mod = await import('./devnetCommand.ts');
  } catch (cause) {
    throw new WalletError(
      'INTERNAL',
      `the devnet command could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  return mod.devnetCommand(argv);
}

/** The network commands, loaded on demand so that the offline key and tx commands never load node clients. */
function chainCommands(): Promise<typeof import('./chainCommands.ts')> {
  return import('./chainCommands.ts');
}

/**
 * Runs the CLI on `argv` (the arguments after the script name) and returns the exit code; never throws.
 * Output goes to `io.stdout`, errors as one line to `io.stderr`; `io` is the process's streams and environment unless
 * given (tests run the CLI in process with their own).
 * @example
 * process.exitCode = await main(['key', 'new']);
 */
export function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  return withCliIo(io, () => run(argv));
}

async function run(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        printText(USAGE);
        return EXIT_OK;
      case '-v':
      case '-V':
      case '--version':
        printText(`koinos-wallet ${VERSION}`);
        return EXIT_OK;
      case 'key':
        return await keyCommand(rest);
      case 'tx':
        return await txCommand(rest);
      case 'devnet':
        return await devnet(rest);
      case 'balance':
        return await (await chainCommands()).balanceCommand(rest);
      case 'history':
        return await (await chainCommands()).historyCommand(rest);
      case 'allowances':
        return await (await chainCommands()).allowancesCommand(rest);
      case 'transfer':
        return await (await chainCommands()).transferCommand(rest);
      case 'contract':
        return await (await import('./contractCommands.ts')).contractCommand(rest);
      default:
        // Unknown commands are not quoted in full: a mistyped line could start with a pasted secret.
        throw new UsageError(
          command.startsWith('-')
            ? `unknown option ${command.split('=')[0]}`
            : `unknown command ${shownWord(command)}; expected key, tx, balance, allowances, history, transfer, contract or devnet`,
        );
    }
  } catch (error) {
    return reportError(error);
  }
}

/** Whether this module is the script node was started with (and not imported by another module or a test). */
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
  // A closed pipe (`koinos-wallet tx decode ... | head`) is not an error of the command.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
