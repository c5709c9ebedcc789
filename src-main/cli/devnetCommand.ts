// `koinos-wallet devnet`: runs the local development node in the foreground until Ctrl-C (or SIGTERM).
// The first stdout line is JSON for scripts and tests; the lines after it are for people.
import { WalletError, describe, causeText } from '../koinos/errors.ts';
import { formatAmount } from '../koinos/amounts.ts';
import { fromJson } from '../koinos/codec.ts';
import { toBase64Url } from '../koinos/bytes.ts';
import { addressFromString } from '../koinos/address.ts';
import { decodeKoinResult, encodeKoinArgs, KOIN_METHODS } from '../koinos/koin.ts';
import {
  assertMaxPositionals,
  EXIT_OK,
  listOption,
  parseArgs,
  readSecret,
  rememberSecret,
  reportError,
  stringOption,
  UsageError,
  warn,
  type OptionSpec,
} from './io.ts';
import {
  startDevnet,
  DEFAULT_HOST,
  DEFAULT_PORT,
  type Devnet,
  type StartDevnetOptions,
} from '../devnet/server/startDevnet.ts';
import { requestType } from '../devnet/methods.ts';
import { lockDataDir, prepareDataDir } from './dataDir.ts';
import { blockLines } from './blockLines.ts';
import {
  describeShape,
  resolveShape,
  SHAPE_NAMES,
  type ChainShape,
  type ShapeName,
  type ShapeOptions,
} from '../devnet/chain/shapes.ts';

/** Environment variable that holds the API key (out of the process list, unlike --api-key). */
export const API_KEY_ENV = 'KOINOS_DEVNET_API_KEY';

/** The `koinos-wallet devnet --help` text. */
export const DEVNET_USAGE = `Usage: koinos-wallet devnet [options]

Runs a local Koinos development node (JSON-RPC and REST) until Ctrl-C.

Options:
  --port N          TCP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H          interface to bind (default ${DEFAULT_HOST})
  --block-time MS   block interval in ms (default 3000; 0 = one block per transaction)
  --manual          produce blocks only on request (JSON-RPC devnet.produce_block)
  --accounts N      number of pre-funded development accounts (default 10)
  --data-dir D      keep the chain in LevelDB in D (default: in memory)
  --reset           start a new chain in --data-dir (a new chain ID)
  --irreversible-depth N
                    blocks the last irreversible block trails the head (default 60, as on mainnet;
                    0 makes every block irreversible at once)
  --like SHAPE      network shape: plain (default), mainnet or harbinger. Places the system contracts
                    (koin, vhp, pob, name_service, resources, governance, claim, get_contract_metadata)
                    at that network's addresses and registers their names; mainnet and harbinger also
                    deploy nicknames and the free mana sharer at the network's addresses and an NFT
                    collection (owner: account 0). The chain ID stays the devnet's own, so nothing
                    signed here can be replayed on a real network.
  --system-contract NAME=ADDRESS
                    place one system contract at ADDRESS (repeatable), e.g. koin=19JntSm8pSNETT9aHTwAUHC5RMoaSmgZPJ
  --api-key-file F  require the key read from file F (trimmed; - reads stdin) on every request
                    (REST: header X-API-KEY, JSON-RPC: header or query parameter apikey)
  --api-key K       the same with the key itself; other users of this machine can read it in the
                    process list, so prefer --api-key-file or ${API_KEY_ENV}
  -h, --help        show this help

Environment:
  ${API_KEY_ENV}  the API key, when neither --api-key-file nor --api-key is given

Developer methods (JSON-RPC, development only): devnet.produce_block {}, devnet.produce_blocks {count, interval_ms},
devnet.advance_time {milliseconds}, devnet.set_balance {contract_id?, account, value}, devnet.create_token {name,
symbol, decimals, initial_supply, owner}, devnet.snapshot {}, devnet.revert {id}, devnet.reset {genesis_seed?,
accounts?, initial_balance?} (a new chain ID). See the README.

The first line of output is JSON: {url, jsonrpc, rest, chain_id, koin_address, shape: {like, system_contracts,
community_contracts}, accounts: [{address, wif}]}. GET /v1/chain/shape answers the same shape.`;

const BANNER_RULE = '!'.repeat(78);

const OPTION_SPEC: Record<string, OptionSpec> = {
  port: { type: 'string' },
  host: { type: 'string' },
  'block-time': { type: 'string' },
  manual: { type: 'boolean' },
  accounts: { type: 'string' },
  'data-dir': { type: 'string' },
  reset: { type: 'boolean' },
  'irreversible-depth': { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  like: { type: 'string' },
  'system-contract': { type: 'string', multiple: true },
};

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(
      `option --${name} of "devnet" expects a whole number from ${min} to ${max}, got ${describe(text)}`,
    );
  }
  return Number(text);
}

function nonEmpty(name: string, text: string | undefined, what: string): string | undefined {
  if (text !== undefined && text.trim() === '')
    throw new UsageError(`option --${name} of "devnet" expects ${what}, got an empty string`);
  return text;
}

/**
 * The API key from --api-key-file, --api-key or the environment (in that order of preference; the two options exclude
 * each other). Every key read is registered for redaction, so that no error line can echo it.
 * @throws UsageError for both options at once or an empty --api-key; WalletError INVALID_ARGUMENT for a key file that
 *   cannot be read or holds nothing, or an environment variable that is set but empty.
 */
async function apiKeyOption(args: ReturnType<typeof parseArgs>): Promise<string | undefined> {
  const file = stringOption(args, 'api-key-file');
  const inline = nonEmpty('api-key', stringOption(args, 'api-key'), 'a key');
  if (file !== undefined && inline !== undefined) {
    throw new UsageError(
      'options --api-key and --api-key-file of "devnet" exclude each other: choose one (--api-key-file keeps the key out of the process list)',
    );
  }
  if (file !== undefined) {
    if (file === '') throw new UsageError('option --api-key-file of "devnet" expects a file name, got an empty string');
    return readSecret(file, 'an API key');
  }
  if (inline !== undefined) {
    rememberSecret(inline);
    warn(
      `--api-key puts the key on the command line, where other users of this machine can read it (ps) and shell history keeps it; prefer --api-key-file FILE or the ${API_KEY_ENV} environment variable`,
    );
    return inline;
  }
  const fromEnv = process.env[API_KEY_ENV];
  if (fromEnv === undefined) return undefined;
  const key = fromEnv.trim();
  // Set but empty is more likely a mistake than a wish for no key: refuse rather than run an open node.
  if (key === '')
    throw new WalletError(
      'INVALID_ARGUMENT',
      `environment variable ${API_KEY_ENV} is set but empty: give it a key, or unset it to run without one`,
    );
  rememberSecret(key);
  return key;
}

/**
 * Parses the devnet options (reading the API key file, if one is given).
 * @throws UsageError with a one-line message (the API key is never quoted); WalletError for an unreadable key file.
 */
async function parseOptions(argv: string[]): Promise<{ help: true } | { help: false; options: StartDevnetOptions }> {
  const args = parseArgs(argv, OPTION_SPEC, 'devnet');
  if (args.help) return { help: true };
  assertMaxPositionals(args, 0, 'devnet');

  const options: StartDevnetOptions = {};
  const port = stringOption(args, 'port');
  if (port !== undefined) options.port = integer('port', port, 0, 65535);
  const host = nonEmpty('host', stringOption(args, 'host'), 'an interface name or address');
  if (host !== undefined) options.host = host;
  const blockTime = stringOption(args, 'block-time');
  if (blockTime !== undefined) {
    if (args.options.manual)
      throw new UsageError('options --manual and --block-time of "devnet" exclude each other: choose one');
    options.blockTimeMs = integer('block-time', blockTime, 0, 86_400_000);
  }
  if (args.options.manual) options.manual = true;
  const accounts = stringOption(args, 'accounts');
  if (accounts !== undefined) options.accounts = integer('accounts', accounts, 1, 1000);
  const dataDir = nonEmpty('data-dir', stringOption(args, 'data-dir'), 'a directory');
  if (dataDir !== undefined) {
    await prepareDataDir(dataDir); // fails at once, saying why, instead of the storage engine's message (or a hang)
    options.dataDir = dataDir;
  }
  if (args.options.reset) options.reset = true;
  const depth = stringOption(args, 'irreversible-depth');
  if (depth !== undefined) options.irreversibleDepth = integer('irreversible-depth', depth, 0, 1_000_000);
  const shape = shapeOption(args);
  if (shape !== undefined) options.shape = shape;
  const apiKey = await apiKeyOption(args);
  if (apiKey !== undefined) options.apiKey = apiKey;
  return { help: false, options };
}

/**
 * --like and --system-contract NAME=ADDRESS (repeatable), checked as the devnet will resolve them.
 * @throws UsageError naming the option and what it expected.
 */
function shapeOption(args: ReturnType<typeof parseArgs>): ShapeOptions | undefined {
  const like = stringOption(args, 'like');
  const placements = listOption(args, 'system-contract');
  if (like === undefined && placements.length === 0) return undefined;
  if (like !== undefined && !(SHAPE_NAMES as readonly string[]).includes(like)) {
    throw new UsageError(`option --like of "devnet" expects one of ${SHAPE_NAMES.join(', ')}, got ${describe(like)}`);
  }
  const systemContracts: Record<string, string> = {};
  for (const text of placements) {
    const match = /^([a-z_]+)=(\S+)$/.exec(text);
    if (!match)
      throw new UsageError(`option --system-contract of "devnet" expects NAME=ADDRESS, got ${describe(text)}`);
    const [, name, address] = match as unknown as [string, string, string];
    if (Object.hasOwn(systemContracts, name))
      throw new UsageError(`option --system-contract of "devnet" places ${name} twice`);
    systemContracts[name] = address;
  }
  const shape: ShapeOptions = { like: like as ShapeName | undefined, systemContracts };
  try {
    resolveShape(shape);
  } catch (e) {
    throw new UsageError(`option --system-contract of "devnet": ${causeText(e)}`);
  }
  return shape;
}

function firstSignal(): { promise: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<string>((resolve) => {
    const onSignal = (signal: string) => resolve(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    dispose = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  });
  return { promise, dispose };
}

/** Best effort: the KOIN balance of an account now (for the banner), or undefined when it cannot be read. */
async function koinBalance(devnet: Devnet, address: string): Promise<string | undefined> {
  try {
    const request = fromJson(requestType('chain.read_contract'), {
      contract_id: devnet.koinAddress,
      entry_point: KOIN_METHODS.balance_of.entryPoint,
      args: toBase64Url(encodeKoinArgs('balance_of', { owner: addressFromString(address) })),
    });
    const { result } = await devnet.node.call('chain.read_contract', request);
    const { value } = decodeKoinResult('balance_of', (result as Uint8Array | undefined) ?? new Uint8Array(0));
    return `${formatAmount(value)} KOIN`;
  } catch {
    return undefined;
  }
}

function shapeLine(shape: ChainShape): string {
  const placed = Object.keys(shape.overrides);
  const base =
    shape.like === 'plain'
      ? "plain (the devnet's own addresses)"
      : `like ${shape.like} (its contract addresses; this devnet's own chain ID)`;
  return placed.length > 0 ? `${base}; placed: ${placed.map((n) => `${n} at ${shape.overrides[n]}`).join(', ')}` : base;
}

function modeLine(options: StartDevnetOptions): string {
  if (options.manual) return 'on request only (JSON-RPC devnet.produce_block)';
  if (options.blockTimeMs === 0) return 'one per accepted transaction';
  return `every ${options.blockTimeMs ?? 3000} ms`;
}

/**
 * Runs `koinos-wallet devnet [options]` and resolves its exit code once the devnet has stopped:
 * 0 after a clean stop (Ctrl-C / SIGTERM) or `--help`, 2 for a usage error, 1 for any other error.
 * Never throws; errors are one line on stderr, never a stack trace.
 * @example
 * process.exitCode = await devnetCommand(['--port', '0', '--manual']);
 */
export async function devnetCommand(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);

  let parsed: Awaited<ReturnType<typeof parseOptions>>;
  try {
    parsed = await parseOptions(argv);
  } catch (e) {
    return reportError(e);
  }
  if (parsed.help) {
    out(DEVNET_USAGE);
    return EXIT_OK;
  }
  const { options } = parsed;

  // One process per folder: a second devnet (or a wallet) on the same LevelDB folder is refused, naming the first.
  let lock: Awaited<ReturnType<typeof lockDataDir>> | undefined;
  try {
    if (options.dataDir !== undefined) lock = await lockDataDir(options.dataDir, 'devnet');
  } catch (e) {
    return reportError(e);
  }

  // Listen for signals before starting, so that a Ctrl-C during start-up still stops cleanly.
  const signal = firstSignal();
  let devnet: Devnet;
  try {
    devnet = await startDevnet({
      ...options,
      // Run on its own, the devnet is a load target too: HTTP on a thread of its own leaves the chain's to the chain.
      httpThread: true,
      log: (line) => process.stderr.write(`koinos-wallet: devnet: ${line}\n`),
      // Blocks that carry transactions are worth a few lines (their mana, reversions and logs); empty ones every few
      // seconds are not.
      onBlock: (block) => {
        for (const line of blockLines(block)) out(line);
      },
    });
  } catch (e) {
    signal.dispose();
    lock?.release();
    return reportError(e);
  }

  let failure: unknown;
  try {
    out(
      JSON.stringify({
        url: devnet.url,
        jsonrpc: `${devnet.url}/jsonrpc`,
        rest: `${devnet.url}/v1`,
        chain_id: devnet.chainId,
        koin_address: devnet.koinAddress,
        shape: describeShape(devnet.node.shape),
        accounts: devnet.accounts.map((a) => ({ address: a.address, wif: a.wif })),
      }),
    );
    const balances = await Promise.all(devnet.accounts.map((a) => koinBalance(devnet, a.address)));
    const lines = [
      '',
      'Koinos devnet is running',
      `  JSON-RPC   ${devnet.url}/jsonrpc`,
      `  REST       ${devnet.url}/v1`,
      `  Chain ID   ${devnet.chainId}`,
      `  KOIN       ${devnet.koinAddress}`,
      `  Shape      ${shapeLine(devnet.node.shape)}`,
      `  Blocks     ${modeLine(options)}`,
      `  Storage    ${options.dataDir ? `LevelDB in ${options.dataDir}` : 'in memory (gone when stopped)'}`,
      ...(options.apiKey ? ['  API key    required (REST header X-API-KEY; JSON-RPC header or query apikey)'] : []),
      '',
      BANNER_RULE,
      '!!  FOR DEVELOPMENT ONLY — never use these keys on mainnet.',
      '!!  Anyone can derive them from the published development mnemonic below.',
      BANNER_RULE,
      `Mnemonic: ${devnet.mnemonic}`,
      'Development accounts (index, address, private key as WIF, balance):',
      ...devnet.accounts.map(
        (a, i) => `  (${a.index})  ${a.address}  ${a.wif}${balances[i] ? `  ${balances[i]}` : ''}`,
      ),
      BANNER_RULE,
      '',
      'Press Ctrl-C to stop.',
    ];
    out(lines.join('\n'));
    await signal.promise;
  } catch (e) {
    failure = e;
  } finally {
    signal.dispose();
  }

  try {
    await devnet.stop();
  } catch (e) {
    return reportError(e);
  } finally {
    lock?.release();
  }
  if (failure !== undefined) return reportError(failure);
  out('Devnet stopped.');
  return EXIT_OK;
}
