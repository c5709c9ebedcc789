// `koinos-wallet balance | allowances | history | transfer`: the wallet's chain services from a shell, JSON on stdout.
// With `transfer --unsigned` (or a `--payer` whose key is elsewhere) the online half of offline signing; `tx sign`
// (offline) and `tx submit` (online) complete it.
import { formatAmount } from '../koinos/amounts.ts';
import { WalletError } from '../koinos/errors.ts';
import { listAllowances } from '../wallet/chain/allowances.ts';
import { exportHistory } from '../wallet/chain/historyExport.ts';
import { NftService } from '../wallet/chain/nfts.ts';
import { PrivateKeySigner } from '../wallet/chain/privateKeySigner.ts';
import { keyFromText } from './keyFile.ts';
import { DATA_DIR_OPTION, NETWORK_OPTIONS, chainContext } from './chainContext.ts';
import { CHAIN_USAGE } from './chainUsage.ts';
import {
  EXIT_OK,
  UsageError,
  assertMaxPositionals,
  listOption,
  parseArgs,
  printJson,
  printText,
  readInput,
  rcLimitOption,
  readSecret,
  stringOption,
  warn,
  type ParsedArgs,
} from './io.ts';
import { ALLOW_RISK_OPTION, allowedRisks } from './riskGate.ts';

/** How long `transfer` waits for its transaction to be in a block. */
const INCLUSION_TIMEOUT_MS = 60_000;

function wantsHelp(args: ParsedArgs): boolean {
  if (args.help) printText(CHAIN_USAGE);
  return args.help;
}

function requireAddress(args: ParsedArgs, command: string): string {
  assertMaxPositionals(args, 1, command);
  const address = args.positionals[0];
  if (!address) throw new UsageError(`"${command}" needs an ADDRESS`);
  return address;
}

/** `balance ADDRESS [--token T]`. */
export async function balanceCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { ...NETWORK_OPTIONS, token: { type: 'string' } }, 'balance');
  if (wantsHelp(args)) return EXIT_OK;
  const address = requireAddress(args, 'balance');
  const ctx = await chainContext(args);
  try {
    const token = await ctx.tokens.resolve(ctx.networkId, stringOption(args, 'token') ?? 'koin');
    const balance = await ctx.tokens.balanceOf(ctx.networkId, token, address);
    const out: Record<string, unknown> = {
      address,
      network: ctx.networkId,
      token: { contract: token.contract, symbol: token.symbol, name: token.name, decimals: token.decimals },
      balance: formatAmount(balance, token.decimals),
      base_units: balance.toString(),
    };
    if (token.system === 'koin') {
      const view = await ctx.dashboard.get({ address, networkId: ctx.networkId });
      out.mana = {
        current: formatAmount(BigInt(view.mana.current)),
        max: formatAmount(BigInt(view.mana.max)),
        full_in_ms: view.mana.fullInMs,
      };
    }
    printJson(out);
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}

/**
 * `allowances ADDRESS [--token CONTRACT]... [--collection CONTRACT]...`: what the account let others spend or move
 * without its signature, on KOIN, VHP and the tokens and NFT collections named (the wallet's Allowances list).
 */
export async function allowancesCommand(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    { ...NETWORK_OPTIONS, token: { type: 'string', multiple: true }, collection: { type: 'string', multiple: true } },
    'allowances',
  );
  if (wantsHelp(args)) return EXIT_OK;
  const address = requireAddress(args, 'allowances');
  const ctx = await chainContext(args);
  try {
    const nfts = new NftService({ networks: ctx.networks, settings: ctx.settings });
    for (const token of listOption(args, 'token')) await ctx.tokens.add(ctx.networkId, token);
    for (const collection of listOption(args, 'collection')) await nfts.add(ctx.networkId, collection);
    const list = await listAllowances({ networks: ctx.networks, tokens: ctx.tokens, nfts }, { owner: address });
    printJson({
      address: list.owner,
      network: ctx.networkId,
      allowances: list.allowances.map((a) =>
        a.kind === 'token'
          ? {
              kind: a.kind,
              contract: a.contract,
              symbol: a.symbol,
              spender: a.spender,
              amount: formatAmount(BigInt(a.amount), a.decimals),
              base_units: a.amount,
              unlimited: a.unlimited,
            }
          : {
              kind: a.kind,
              contract: a.contract,
              name: a.name,
              symbol: a.symbol,
              ...(a.kind === 'nft-token' ? { token_id: a.tokenId } : {}),
              operator: a.spender,
            },
      ),
      read: list.read,
      unread: list.unread,
      cut: list.cut,
    });
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}

/**
 * A `--from` / `--to` date as epoch milliseconds: an ISO 8601 date (`2026-01-31`, UTC) or date and time. A date alone
 * as `--to` means the end of that day, so that `--from 2026-01-01 --to 2026-01-31` covers all of January.
 */
function readDate(text: string | undefined, option: '--from' | '--to'): bigint | undefined {
  if (text === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
    ? Date.parse(dateOnly ? `${text}T00:00:00Z` : text)
    : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `${option} expects a date such as 2026-01-31 or 2026-01-31T12:00:00Z, got ${JSON.stringify(text)}`,
    );
  return BigInt(ms) + (option === '--to' && dateOnly ? 86_400_000n : 0n);
}

/** `history ADDRESS [--limit N] [--before SEQ]`, or `history ADDRESS --format csv|json [--from DATE] [--to DATE]` (export). */
export async function historyCommand(argv: string[]): Promise<number> {
  const spec = {
    ...NETWORK_OPTIONS,
    limit: { type: 'string' },
    before: { type: 'string' },
    format: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  } as const;
  const args = parseArgs(argv, spec, 'history');
  if (wantsHelp(args)) return EXIT_OK;
  const address = requireAddress(args, 'history');
  const format = stringOption(args, 'format');
  if (format !== undefined) return exportCommand(args, address, format);
  if (stringOption(args, 'from') !== undefined || stringOption(args, 'to') !== undefined)
    throw new UsageError('--from and --to go with --format csv|json');
  const limitText = stringOption(args, 'limit') ?? '20';
  if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 500)
    throw new UsageError('--limit expects a number from 1 to 500');
  const before = stringOption(args, 'before');
  if (before !== undefined && !/^\d{1,20}$/.test(before))
    throw new UsageError('--before expects a sequence number (a whole number)');
  const ctx = await chainContext(args);
  try {
    if (before === '0') {
      printJson({ records: [] });
      return EXIT_OK;
    }
    const page = await ctx.history.page({
      networkId: ctx.networkId,
      address,
      limit: Number(limitText),
      ...(before !== undefined ? { seqNum: (BigInt(before) - 1n).toString() } : {}),
      ascending: false,
      irreversibleOnly: false,
    });
    // The next page is "older than the last record shown": --before takes that record's sequence number.
    printJson({
      records: page.records,
      ...(page.next !== undefined ? { next: (BigInt(page.next) + 1n).toString() } : {}),
    });
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}

/** `history ADDRESS --format csv|json [--from DATE] [--to DATE]`: the export file on stdout, oldest first. */
async function exportCommand(args: ParsedArgs, address: string, format: string): Promise<number> {
  if (format !== 'csv' && format !== 'json')
    throw new UsageError(`--format expects csv or json, got ${JSON.stringify(format)}`);
  if (stringOption(args, 'limit') !== undefined || stringOption(args, 'before') !== undefined)
    throw new UsageError('--limit and --before page the JSON records; an export takes --from and --to');
  const from = readDate(stringOption(args, 'from'), '--from');
  const to = readDate(stringOption(args, 'to'), '--to');
  const ctx = await chainContext(args);
  try {
    const { content } = await exportHistory(ctx.history, {
      networkId: ctx.networkId,
      address,
      format,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    });
    process.stdout.write(content);
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}

/**
 * `transfer --from A --to B --amount X [--token T] [--rc-limit N] [--memo TEXT] [--payer P [--payer-key-file F]]
 * (--wif-file F | --unsigned) [--allow-risk NAME]... [--data-dir DIR]`. The key signs only what the command line's
 * approval queue approved: a transfer of a token this network is not known to hold is refused before its dry run is
 * signed, unless `--allow-risk unknown-contract`. With `--data-dir` the wallet's pending transactions there count.
 * With a payer account whose key is not given, the sender's signature is added and the transaction printed for the
 * payer's `tx sign`; a contract payer (the free mana sharer) signs nothing, so the transfer is sent at once.
 */
export async function transferCommand(argv: string[]): Promise<number> {
  const spec = {
    ...NETWORK_OPTIONS,
    from: { type: 'string' },
    to: { type: 'string' },
    amount: { type: 'string' },
    token: { type: 'string' },
    'rc-limit': { type: 'string' },
    memo: { type: 'string' },
    'wif-file': { type: 'string' },
    payer: { type: 'string' },
    'payer-key-file': { type: 'string' },
    unsigned: { type: 'boolean' },
    ...DATA_DIR_OPTION,
    ...ALLOW_RISK_OPTION,
  } as const;
  const args = parseArgs(argv, spec, 'transfer');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 0, 'transfer');
  const from = stringOption(args, 'from');
  const to = stringOption(args, 'to');
  const amount = stringOption(args, 'amount');
  if (!from || !to || !amount)
    throw new UsageError('"transfer" needs --from ADDRESS, --to ADDRESS and --amount AMOUNT');
  const keyFile = stringOption(args, 'wif-file');
  const unsigned = args.options.unsigned === true;
  if (unsigned === (keyFile !== undefined))
    throw new UsageError(
      '"transfer" needs exactly one of --wif-file FILE (sign and submit) or --unsigned (print for offline signing)',
    );
  const payer = stringOption(args, 'payer');
  const payerKeyFile = stringOption(args, 'payer-key-file');
  if (payerKeyFile !== undefined && (payer === undefined || keyFile === undefined)) {
    throw new UsageError("--payer-key-file goes with --payer ADDRESS and --wif-file FILE (the sender's key)");
  }
  const allowed = allowedRisks(args);
  const rcLimit = rcLimitOption(args);
  const memo = stringOption(args, 'memo');
  const request = {
    from,
    to,
    amount,
    token: stringOption(args, 'token') ?? 'koin',
    ...(rcLimit !== undefined ? { rcLimit: rcLimit.toString() } : {}),
    ...(memo ? { memo } : {}),
    ...(payer !== undefined ? { payer: { kind: 'account' as const, address: payer } } : {}),
  };

  if (unsigned) {
    const ctx = await chainContext(args, undefined, [], 'transfer');
    try {
      const tx = await ctx.offline
        .exportUnsigned({ ...request, networkId: ctx.networkId })
        .catch((error: unknown) => Promise.reject(withRcLimitInBaseUnits(error, rcLimit)));
      // The nonce is fixed now: a later export, or any transaction of the account sent first, takes it.
      warn(
        `the export uses nonce ${tx.nonce} of ${tx.payee ?? tx.payer}: submit it before any other transaction of that account, or it will be refused`,
      );
      printJson(tx.base64);
      return EXIT_OK;
    } finally {
      await ctx.close();
    }
  }
  // Each file as tx sign and contract read theirs: WIF, 64 hex digits or the JSON that key new writes.
  const keys = [keyFromText(await readSecret(keyFile, 'a private key (WIF, 64 hex digits or a key new file)'))];
  if (payerKeyFile !== undefined)
    keys.push(
      keyFromText(await readSecret(payerKeyFile, "the payer's private key (WIF, 64 hex digits or a key new file)")),
    );
  const signer = new PrivateKeySigner(keys.map((key) => key.privateKey));
  for (const key of keys) key.privateKey.fill(0);
  const signerError = !signer.addresses.includes(from)
    ? `the key in --wif-file is not the key of --from ${from}; it signs for ${signer.addresses.join(', ')}`
    : payerKeyFile !== undefined && !signer.addresses.includes(payer!)
      ? `the key in --payer-key-file is not the key of --payer ${payer}; the keys sign for ${signer.addresses.join(', ')}`
      : undefined;
  if (signerError !== undefined) {
    signer.wipe();
    throw new WalletError('INVALID_ARGUMENT', signerError);
  }
  // The command line is the approval: the queue refuses a flagged transfer unless --allow-risk names each flag.
  const ctx = await chainContext(args, signer, allowed, 'transfer');
  try {
    const review = await ctx.send
      .prepare({ ...request, networkId: ctx.networkId })
      .catch((error: unknown) => Promise.reject(withRcLimitInBaseUnits(error, rcLimit)));
    const missing = review.signers.filter((a) => !signer.addresses.includes(a));
    if (missing.length > 0) {
      // The payer's key is on another machine: the sender signs the export, the payer adds its signature with `tx sign`.
      const unsignedTx = await ctx.offline.exportUnsigned({ ...request, networkId: ctx.networkId });
      const signed = await ctx.offline.sign(unsignedTx.base64, from, ctx.networkId);
      warn(
        `signed by ${signed.signaturesPresent.join(', ')}; still needs the signature of ${signed.signaturesNeeded.join(', ')}: "koinos-wallet tx sign" with that key, then "tx submit"`,
      );
      printJson(signed.base64);
      return EXIT_OK;
    }
    const receipt = await ctx.send.confirm(review.reviewId);
    // Sent: recorded in the data folder now, so that the next command counts its nonce while this one waits.
    await ctx.recordPending();
    const update = await ctx.follower.waitFor(
      receipt.transactionId,
      ['included', 'irreversible'],
      INCLUSION_TIMEOUT_MS,
    );
    if (update.status === 'expired' || update.status === 'failed') {
      throw new WalletError(
        'NODE_ERROR',
        update.message ?? `the transaction ${receipt.transactionId} was not included`,
      );
    }
    printJson({ receipt, status: update.status, ...(update.blockHeight ? { block_height: update.blockHeight } : {}) });
    return EXIT_OK;
  } finally {
    await ctx.close();
    signer.wipe();
  }
}

/**
 * The wallet names mana in whole units, as its screens do, and --rc-limit counts base units: a refusal for want of
 * mana, when the limit was typed, also says what that limit was in mana.
 */
function withRcLimitInBaseUnits(error: unknown, rcLimit: bigint | undefined): unknown {
  if (rcLimit === undefined || !(error instanceof WalletError) || error.code !== 'NOT_ENOUGH_MANA') return error;
  return new WalletError(error.code, error.shortMessage, {
    metaMessages: [
      ...error.metaMessages,
      `--rc-limit counts base units of mana (8 decimals): ${rcLimit} is ${formatAmount(rcLimit)} mana.`,
    ],
    ...(error.details !== undefined ? { details: error.details } : {}),
  });
}

/** `tx submit [INPUT] [--dry-run]`. */
export async function txSubmitCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { ...NETWORK_OPTIONS, ...DATA_DIR_OPTION, 'dry-run': { type: 'boolean' } }, 'tx submit');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 1, 'tx submit');
  const input = await readInput(args.positionals[0], 'a signed transaction (base64 or JSON)');
  const ctx = await chainContext(args, undefined, [], 'tx submit');
  try {
    printJson(await ctx.offline.submit(input, args.options['dry-run'] !== true, ctx.networkId));
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}
