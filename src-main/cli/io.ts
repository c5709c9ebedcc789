// Shared helpers of the `koinos-wallet` commands: option parsing, reading INPUT (argument, @file, stdin) and secrets
// (file or stdin only), JSON on stdout, and one-line errors on stderr with the exit codes the CLI promises.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { WalletError, describe, hintedText } from '../koinos/errors.ts';

/**
 * Where one run of the CLI reads and writes: the process's streams and environment when run as a command, a test's
 * own when `main(argv, io)` runs in process. The exit code is main's return value, never process.exit.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read to its end for INPUT and secrets; at a terminal (isTTY and setRawMode), a secret is typed without echo. */
  stdin: AsyncIterable<Buffer | string> & {
    isTTY?: boolean;
    setRawMode?(mode: boolean): unknown;
    setEncoding?(encoding: BufferEncoding): unknown;
    resume?(): unknown;
    pause?(): unknown;
    on?(event: 'data', listener: (chunk: string) => void): unknown;
    off?(event: 'data', listener: (chunk: string) => void): unknown;
  };
  env: Record<string, string | undefined>;
}

/** The process's own streams and environment (looked up on use: process.stdin is made the first time it is read). */
export const PROCESS_IO: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  get env() {
    return process.env;
  },
};

interface CliRun {
  io: CliIo;
  /** Secrets read in this run, so that no error text can echo them (see reportError). */
  secrets: Set<string>;
}

const runs = new AsyncLocalStorage<CliRun>();
const processRun: CliRun = { io: PROCESS_IO, secrets: new Set() };

function currentRun(): CliRun {
  return runs.getStore() ?? processRun;
}

/** The io of the run in progress (the process's outside `withCliIo`). */
function cliIo(): CliIo {
  return currentRun().io;
}

/**
 * Runs `work` with `io` as the CLI's streams and environment, and secrets remembered for this run alone; runs in
 * parallel do not see each other's.
 */
export function withCliIo<T>(io: CliIo, work: () => Promise<T>): Promise<T> {
  return runs.run({ io, secrets: new Set() }, work);
}

/** Exit codes: 0 success, 1 an error in what was given (bad key, bad transaction, ...), 2 a usage error. */
export const EXIT_OK = 0;
const EXIT_ERROR = 1;
const EXIT_USAGE = 2;

/**
 * A command line that cannot be run as written (unknown command or option, missing or extra argument).
 * Reported like any WalletError, but with exit code 2 and a pointer to `--help`.
 * @example
 * throw new UsageError('unknown command "foo"');
 */
export class UsageError extends WalletError {
  constructor(shortMessage: string) {
    super('INVALID_ARGUMENT', shortMessage);
  }
}

/** How one `--option` is read: a string value (`--name VALUE` or `--name=VALUE`) or a flag. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A string option that may repeat; its values are collected in order. */
  multiple?: boolean;
}

export interface ParsedArgs {
  /** String options as string (or string[] when `multiple`), flags as true; absent options are missing. */
  options: Record<string, string | string[] | true>;
  positionals: string[];
  help: boolean;
}

/**
 * Options that would put a secret on the command line, where it lands in shell history and in `ps` output.
 * They are refused with an explanation instead of "unknown option".
 */
const SECRET_OPTIONS = new Map<string, string>([
  ['wif', '--wif-file FILE'],
  ['private-key', '--wif-file FILE'],
  ['key', '--wif-file FILE'],
]);

/**
 * Parses the arguments of one command against its options. `-` alone is a positional (stdin), `--` ends options.
 * @throws UsageError for an unknown option, a missing value, or a secret option such as `--wif`; option values are
 *   never quoted in the message (they may be secrets).
 * @example
 * parseArgs(['tx.json', '--json'], { json: { type: 'boolean' } }, 'tx sign'); // { options: { json: true }, positionals: ['tx.json'], help: false }
 */
export function parseArgs(argv: string[], spec: Record<string, OptionSpec>, command: string): ParsedArgs {
  const options: ParsedArgs['options'] = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '';
    const safer = SECRET_OPTIONS.get(name);
    if (safer) {
      throw new UsageError(
        `--${name} is not accepted: a private key on the command line ends up in shell history and process lists; pass ${safer} (or pipe the key on stdin) instead`,
      );
    }
    const option = name ? spec[name] : undefined;
    if (!option) {
      // Only the option's name is shown (an `=value` part could be anything, even a key).
      const shown = arg.startsWith('--') ? `--${name}` : arg.slice(0, 2);
      throw new UsageError(`unknown option ${shown} for "${command}"`);
    }
    if (option.type === 'boolean') {
      if (eq >= 0) throw new UsageError(`option --${name} of "${command}" takes no value`);
      options[name] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      // A negative number is a value (refused by the option's own check, which says why), not the next option.
      if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d/.test(next))) {
        throw new UsageError(`option --${name} of "${command}" needs a value`);
      }
      value = next;
      i++;
    }
    if (option.multiple) {
      const list = (options[name] as string[] | undefined) ?? [];
      list.push(value);
      options[name] = list;
    } else {
      if (options[name] !== undefined) throw new UsageError(`option --${name} of "${command}" is given twice`);
      options[name] = value;
    }
  }
  return { options, positionals, help };
}

/** The value of a single string option, if given. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The mana limit of --rc-limit in base units, or undefined when the option is absent.
 * @throws UsageError for anything but a whole number from 1 to 2^64-1 (an empty value too), saying what was given.
 */
export function rcLimitOption(args: ParsedArgs): bigint | undefined {
  const text = stringOption(args, 'rc-limit');
  if (text === undefined) return undefined;
  if (!/^\d{1,20}$/.test(text) || BigInt(text) === 0n || BigInt(text) >= 2n ** 64n)
    throw new UsageError(
      `--rc-limit expects mana in base units: a whole number from 1 to 2^64-1, got ${text === '' ? 'nothing' : describe(text)}`,
    );
  return BigInt(text);
}

/** The values of a repeatable string option (empty when not given). */
export function listOption(args: ParsedArgs, name: string): string[] {
  const v = args.options[name];
  return Array.isArray(v) ? v : [];
}

/** @throws UsageError when more positional arguments are given than the command takes (they are counted, not quoted). */
export function assertMaxPositionals(args: ParsedArgs, max: number, command: string, hint = ''): void {
  if (args.positionals.length > max) {
    const takes = max === 0 ? 'takes no arguments' : `takes at most ${max} argument${max === 1 ? '' : 's'}`;
    throw new UsageError(`"${command}" ${takes}, got ${args.positionals.length}${hint ? `: ${hint}` : ''}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Input

/** Whether an INPUT argument means "read stdin" (absent or `-`). */
export function isStdinInput(arg: string | undefined): boolean {
  return arg === undefined || arg === '-';
}

/**
 * Reads one line typed at a terminal without showing it (raw mode: no echo), for secrets. Enter or Ctrl-D ends it,
 * Backspace deletes, Ctrl-C cancels.
 * @throws WalletError INVALID_ARGUMENT when cancelled with Ctrl-C.
 */
function readHiddenLine(what: string): Promise<string> {
  const { stdin, stderr } = cliIo();
  // Echo goes off before the prompt shows, so that nothing typed after the prompt is ever shown.
  stdin.setRawMode!(true);
  stderr.write(`Type or paste ${what} (it is not shown), then press Enter: `);
  stdin.setEncoding?.('utf8');
  stdin.resume?.();
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (outcome: () => void) => {
      stdin.off?.('data', onData);
      stdin.setRawMode!(false);
      stdin.pause?.();
      stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish(() => resolve(text));
        if (ch === '\u0003')
          return finish(() => reject(new WalletError('INVALID_ARGUMENT', `cancelled (Ctrl-C) while reading ${what}`)));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on?.('data', onData);
  });
}

async function readStdin(what: string): Promise<string> {
  const { stdin, stderr } = cliIo();
  if (stdin.isTTY) stderr.write(`Reading ${what} from stdin (end with Ctrl-D)...\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readTextFile(path: string, what: string, shown = describe(path)): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (code ?? 'unreadable');
    throw new WalletError('INVALID_ARGUMENT', `cannot read ${what} from file ${shown}: ${reason}`, { cause });
  }
}

/**
 * A word of the command line as an error quotes it: in full when short, else only its length. A mistyped line can
 * hold a pasted secret (a WIF where a command or a file name was expected), and stderr ends up in logs.
 * @example
 * shownWord('inspekt'); // '"inspekt"'
 */
export function shownWord(text: string): string {
  return text.length > 24 ? `(${text.length} characters, not shown)` : `"${text}"`;
}

/**
 * The name of a secret's file as an error quotes it: a path (with a "/") as it is, anything else as a word (a key
 * given where its file was expected has no "/": WIF, hex and API keys are written without one).
 */
function shownSecretPath(path: string): string {
  return path.includes('/') ? describe(path) : shownWord(path);
}

/**
 * Reads a command's INPUT: the argument itself, `@FILE` for a file's content, `-` or no argument for stdin.
 * @throws WalletError INVALID_ARGUMENT when the file cannot be read or the input is empty.
 * @example
 * await readInput('@tx.json', 'a transaction'); // the content of tx.json
 */
export async function readInput(arg: string | undefined, what: string): Promise<string> {
  let text: string;
  if (isStdinInput(arg)) text = await readStdin(what);
  else if (arg!.startsWith('@')) text = await readTextFile(arg!.slice(1), what);
  else text = arg!;
  if (text.trim() === '') {
    const from = isStdinInput(arg)
      ? 'stdin'
      : arg!.startsWith('@')
        ? `file ${describe(arg!.slice(1))}`
        : 'the argument';
    throw new WalletError('INVALID_ARGUMENT', `expected ${what}, got nothing on ${from}`);
  }
  return text;
}

/**
 * Reads a secret (a private key) from a file or, when `file` is absent or `-`, from stdin; never from an argument.
 * The text is trimmed and remembered so that error reports redact it.
 * @throws WalletError INVALID_ARGUMENT when the file cannot be read or holds nothing.
 */
export async function readSecret(file: string | undefined, what: string): Promise<string> {
  const fromStdin = isStdinInput(file);
  // At a terminal the secret is typed without echo, so that it never shows on the screen or in a scrollback.
  const { stdin } = cliIo();
  const atTerminal = stdin.isTTY === true && stdin.setRawMode !== undefined;
  const raw = fromStdin
    ? atTerminal
      ? await readHiddenLine(what)
      : await readStdin(what)
    : await readTextFile(file!, what, shownSecretPath(file!));
  const text = raw.trim();
  if (text === '')
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected ${what}, got nothing ${fromStdin ? 'on stdin' : `in file ${shownSecretPath(file!)}`}`,
    );
  const { secrets } = currentRun();
  secrets.add(text);
  for (const line of text.split(/\s+/)) if (line.length >= 16) secrets.add(line);
  return text;
}

/** Registers a secret that did not come through readSecret (an API key from an option or the environment) for redaction. */
export function rememberSecret(text: string): void {
  if (text !== '') currentRun().secrets.add(text);
}

// ---------------------------------------------------------------------------------------------
// Output

/** Prints a value as indented JSON and a newline on stdout. */
export function printJson(value: unknown): void {
  cliIo().stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Prints a plain text block (usage) on stdout. */
export function printText(text: string): void {
  cliIo().stdout.write(text.endsWith('\n') ? text : text + '\n');
}

/** Prints a block of text on stderr, where it stays apart from the result (stdout carries only that). */
export function inform(lines: readonly string[]): void {
  cliIo().stderr.write(`${lines.join('\n')}\n`);
}

/** Prints a one-line warning on stderr. */
export function warn(message: string): void {
  cliIo().stderr.write(`koinos-wallet: warning: ${message}\n`);
}

function redact(text: string): string {
  let out = text;
  for (const s of currentRun().secrets) out = out.split(s).join('[redacted]');
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Reports an error as one line on stderr and returns the exit code: 2 for a UsageError, 1 for anything else.
 * A WalletError shows its shortMessage and hints; any other error shows a generic notice and its message, never
 * a stack. Secrets read with readSecret are redacted from whatever is printed.
 */
export function reportError(error: unknown): number {
  let line: string;
  let code = EXIT_ERROR;
  if (error instanceof UsageError) {
    line = `${error.shortMessage} (see koinos-wallet --help)`;
    code = EXIT_USAGE;
  } else if (error instanceof WalletError) {
    line = hintedText(error);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    line = `unexpected error: ${message}`;
  }
  cliIo().stderr.write(`koinos-wallet: ${oneLine(redact(line))}\n`);
  return code;
}
