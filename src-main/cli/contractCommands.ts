// `koinos-wallet contract upload | read | call | abi`: contract development from a shell, anchored on koinos-cli's
// `upload`, `register` and contract calls (internal/cli/commands.go): the contract id is the key's address, the ABI is
// the node's (contract_meta_store), arguments are JSON read with the ABI's own types. JSON on stdout.
import { readFile } from 'node:fs/promises';
import { addressFromPublicKey, addressFromString, addressToString, isAddress } from '../koinos/address.ts';
import { BTYPE, bytesToJson, toJson, type JsonValue } from '../koinos/codec.ts';
import { contractDecoder } from '../koinos/contractDecoder.ts';
import { parseAbi, type AbiMethod, type ContractAbi } from '../koinos/contractAbi.ts';
import { WalletError, describe } from '../koinos/errors.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../koinos/jsonDepth.ts';
import { publicKeyFromPrivateKey } from '../koinos/keys.ts';
import { prepareTransaction } from '../koinos/transaction.ts';
import type { Operation, Transaction, TransactionReceipt } from '../koinos/types.ts';
import type { RiskFlag } from '../wallet/chain/types.ts';
import type { KoinosNode } from '../wallet/chain/koinosNode.ts';
import { decodeOperation } from '../wallet/chain/operations.ts';
import { PrivateKeySigner } from '../wallet/chain/privateKeySigner.ts';
import { ReviewBook } from '../wallet/chain/reviewBook.ts';
import { prepareOperations } from '../wallet/chain/submission.ts';
import { assessRisks, knownContractsOf } from '../wallet/chain/riskFlags.ts';
import { DATA_DIR_OPTION, NETWORK_OPTIONS, chainContext, type ChainContext } from './chainContext.ts';
import { DATA_DIR_USAGE, NETWORK_USAGE } from './chainUsage.ts';
import {
  EXIT_OK,
  UsageError,
  assertMaxPositionals,
  parseArgs,
  printJson,
  printText,
  readSecret,
  stringOption,
  type ParsedArgs,
  shownWord,
  rcLimitOption,
} from './io.ts';
import { keyFromText } from './keyFile.ts';
import { ALLOW_RISK_OPTION, ALLOW_RISK_USAGE, allowedRisks, requireAllowed } from './riskGate.ts';

/** How long `upload` and `call` wait for their transaction to be in a block. */
const INCLUSION_TIMEOUT_MS = 60_000;
/** Largest bytecode file read (the chain's own limit is the block's network bandwidth, far below this). */
const MAX_WASM_BYTES = 16 * 1024 * 1024;
/** Largest ABI file read (contractAbi.ts refuses longer ABI text). */
const MAX_ABI_FILE_BYTES = 2 * 1024 * 1024;

export const CONTRACT_USAGE = `Contracts (for contract developers; anchor: koinos-cli's upload, register and calls):
  koinos-wallet contract upload WASM [--abi FILE] --key-file FILE [--payer-key-file FILE] [--rc-limit N]
                                [--authorizes-call-contract] [--authorizes-transaction-application]
                                [--authorizes-upload-contract] --allow-risk replaces-account
                                --allow-risk upload-contract [network options]
      Uploads the WebAssembly module WASM as the contract whose id is the address of the key in --key-file,
      with the ABI JSON of FILE kept by the node's contract meta store. The key's account pays unless
      --payer-key-file names another payer (who signs too). Sizes rc_limit with a dry run (or takes --rc-limit,
      base units of mana), submits, waits until it is in a block and prints {"contract_id", "transaction_id",
      "status", "block_height", "receipt"}. An upload replaces the key's account with contract code: it is
      refused, before anything is signed, unless both --allow-risk options are given.

  koinos-wallet contract read CONTRACT METHOD [JSON] [network options]
      Reads a read-only METHOD with the arguments JSON (default {}), encoded with the ABI the node has for the
      contract, and prints the decoded result.

  koinos-wallet contract call CONTRACT METHOD [JSON] --key-file FILE [--payer-key-file FILE] [--rc-limit N]
                              [--allow-risk NAME]... [network options]
      Calls METHOD with the arguments JSON (default {}), signed by the key in --key-file (and paid by it unless
      --payer-key-file): a dry run for rc_limit, then submit and wait; prints {"transaction_id", "status",
      "block_height", "receipt"} with the receipt's events decoded with their contracts' ABIs. A contract that
      is neither KOIN, VHP nor a system contract named by the node needs --allow-risk unknown-contract, and a
      token transfer to the signer itself --allow-risk self-transfer; without them nothing is signed.

  koinos-wallet contract abi CONTRACT [network options]
      Prints the ABI the node has for the contract (methods with entry_point and read_only, koilib_types).

  CONTRACT is an address, or the name of a system contract (koin, vhp). Keys are read from files only.
  ${ALLOW_RISK_USAGE}
  Network options:
${NETWORK_USAGE}
${DATA_DIR_USAGE}`;

type Subcommand = 'upload' | 'read' | 'call' | 'abi';

/** `contract SUBCOMMAND ...`: a table the compiler checks against the subcommand names. */
export async function contractCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const table: Record<Subcommand, (argv: string[]) => Promise<number>> = { upload, read, call, abi: abiCommand };
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    printText(CONTRACT_USAGE);
    return EXIT_OK;
  }
  if (!Object.hasOwn(table, sub)) {
    throw new UsageError(`unknown contract command ${shownWord(sub)}; expected upload, read, call or abi`);
  }
  return table[sub as Subcommand](rest);
}

function wantsHelp(args: ParsedArgs): boolean {
  if (args.help) printText(CONTRACT_USAGE);
  return args.help;
}

/** A signing key read from a file: its private key and address (never printed). */
interface Key {
  privateKey: Uint8Array;
  address: Uint8Array;
}

async function readKey(file: string | undefined, option: string): Promise<Key> {
  if (file === undefined)
    throw new UsageError(`${option} FILE is required: the key that signs (WIF, hex or the JSON of "key new --out")`);
  const { privateKey } = keyFromText(await readSecret(file, `a private key for ${option} (WIF, hex or a key file)`));
  return { privateKey, address: addressFromPublicKey(publicKeyFromPrivateKey(privateKey, true)) };
}

async function readFileBytes(path: string, what: string, max: number): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new WalletError(
      'INVALID_ARGUMENT',
      `cannot read ${what} ${describe(path)}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'the system refused')}`,
      { cause },
    );
  }
  if (bytes.length > max)
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${what}: expected at most ${max} bytes, got ${bytes.length} in ${describe(path)}`,
    );
  return bytes;
}

/** JSON arguments of a method from the command line (default {}), with the error naming what was wrong. */
function argumentsJson(text: string | undefined): unknown {
  if (text === undefined) return {};
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw new WalletError(
      'INVALID_JSON',
      `arguments: expected JSON nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new WalletError(
      'INVALID_JSON',
      `arguments: expected a JSON object such as '{"owner": "1..."}', got ${describe(text)}`,
    );
  }
}

/** The address of CONTRACT: base58 (checked), or a system contract name the node resolves. */
async function contractAddress(node: KoinosNode, text: string | undefined): Promise<string> {
  if (text === undefined) throw new UsageError('a CONTRACT address is required');
  if (isAddress(text)) return text;
  if (/^[a-z][a-z0-9_.-]{0,31}$/.test(text)) {
    const address = await node.systemContract(text);
    if (address) return addressToString(address);
    throw new WalletError(
      'NOT_FOUND',
      `CONTRACT: expected an address or a system contract name, got ${describe(text)}, which the node does not know`,
    );
  }
  addressFromString(text); // throws the precise reason (length, checksum, ...)
  throw new WalletError('INVALID_ADDRESS', `CONTRACT: expected an address, got ${describe(text)}`);
}

/** The parsed ABI the node keeps for a contract. */
async function nodeAbi(node: KoinosNode, contractId: string): Promise<ContractAbi> {
  const { meta } = await node.rpc.callMessage('contract_meta_store.get_contract_meta', {
    contract_id: addressFromString(contractId),
  });
  if (!meta || meta.abi === '') {
    throw new WalletError(
      'NOT_FOUND',
      `the node has no ABI for contract ${contractId}: upload it with "contract upload --abi FILE", or check the address and --network`,
    );
  }
  return parseAbi(meta.abi);
}

/** A receipt as the node's JSON, its events decoded with their contracts' ABIs. */
async function receiptJson(node: KoinosNode, receipt: TransactionReceipt): Promise<JsonValue> {
  const json = toJson('koinos.protocol.transaction_receipt', receipt);
  const decoder = contractDecoder({
    abiText: async (contractId) => {
      const { meta } = await node.rpc.callMessage('contract_meta_store.get_contract_meta', {
        contract_id: addressFromString(contractId),
      });
      return meta?.abi || undefined;
    },
    isSystemToken: () => false,
  });
  if (receipt.events.length > 0) json.events = await Promise.all(receipt.events.map((e) => decoder.event(e)));
  return json;
}

/**
 * Signs and submits `operations` through the wallet's submission pipeline, as koinos-cli lays them out
 * (cliutil/transaction.go): the key's account is the nonce account (the payee when another account pays). The nonce
 * counts the node's mempool and the data folder's pending transactions; the command line's approval queue approves
 * (its `--allow-risk` options for each of `risks`) and the keys sign only under that approval; a dry run sizes rc_limit
 * (submission.ts rcLimitFor) unless a pending transaction holds the nonce; then the transaction is submitted, recorded
 * and followed until it is in a block.
 */
async function submitOperations(
  ctx: ChainContext,
  operations: Operation[],
  key: Key,
  payerKey: Key | undefined,
  rcLimitByHand: bigint | undefined,
  risks: RiskFlag[],
): Promise<{
  transactionId: string;
  status: string;
  blockHeight?: string;
  receipt: TransactionReceipt;
  node: KoinosNode;
}> {
  const { network, node } = await ctx.networks.node(ctx.networkId);
  const party = (k: Key) => ({ address: addressToString(k.address), bytes: k.address });
  const sender = party(key);
  const payer = payerKey ? party(payerKey) : sender;
  const prepared = await prepareOperations({
    node,
    networkId: network.id,
    pending: ctx.pending,
    payer,
    ...(payerKey ? { payee: sender } : {}),
    operations,
    ...(rcLimitByHand !== undefined ? { rcLimit: rcLimitByHand } : {}),
  });
  if (prepared.availableMana === 0n) {
    throw new WalletError(
      'NOT_ENOUGH_MANA',
      `${payer.address} has no mana left for a transaction (all of its ${prepared.mana} mana is used or held by pending transactions); wait for it to regenerate, or pay with --payer-key-file`,
    );
  }
  if (rcLimitByHand !== undefined && rcLimitByHand > prepared.availableMana) {
    throw new WalletError(
      'NOT_ENOUGH_MANA',
      `--rc-limit ${rcLimitByHand} is more than the ${prepared.availableMana} mana ${payer.address} has available: lower it, or leave it out to size it from the dry run`,
    );
  }
  await ctx.networks.observeChainId(network.id, prepared.chainId);
  const rcCap = rcLimitByHand ?? prepared.availableMana;
  const transaction = prepareTransaction(prepared.unsigned(rcCap));
  const tokens = await ctx.tokens.known(network.id).catch(() => []);
  const signer = new PrivateKeySigner([key.privateKey, ...(payerKey ? [payerKey.privateKey] : [])]);
  try {
    const book = new ReviewBook(
      { networks: ctx.networks, pending: ctx.pending, follower: ctx.follower, signer, approvals: ctx.approvals },
      'transaction',
    );
    const review = book.open({
      network,
      chainId: prepared.chainId,
      from: sender.address,
      signers: payerKey ? [sender.address, payer.address] : [sender.address],
      payer: { kind: payerKey ? 'account' : 'self', address: payer.address, offset: 0n },
      transaction,
      nonce: prepared.nonce,
      confirmedNonce: prepared.confirmedNonce,
      rcCap,
      rcByHand: rcLimitByHand !== undefined,
      costKey: `${network.id} cli`,
      rcEstimate: rcCap,
      estimateSource: 'default',
      availableMana: prepared.availableMana,
      operations: transaction.operations.map((op) => decodeOperation(op, tokens)),
      risks,
      hints: {
        mana: 'raise --rc-limit, or leave it out to size it from the dry run.',
        revert: "Check the arguments and the contract's state.",
      },
    });
    const { signed, receipt } = await book.confirmSigned(review.reviewId);
    // Sent: recorded in the data folder now, so that the next command counts its nonce while this one waits.
    await ctx.recordPending();
    const id = bytesToJson(signed.id, BTYPE.TRANSACTION_ID);
    const update = await ctx.follower.waitFor(id, ['included', 'irreversible'], INCLUSION_TIMEOUT_MS);
    if (update.status === 'expired' || update.status === 'failed')
      throw new WalletError('NODE_ERROR', update.message ?? `the transaction ${id} was not included`);
    return {
      transactionId: id,
      status: update.status,
      ...(update.blockHeight ? { blockHeight: update.blockHeight } : {}),
      receipt: receipt!,
      node,
    };
  } finally {
    signer.wipe();
  }
}

const WRITE_OPTIONS = {
  ...NETWORK_OPTIONS,
  ...DATA_DIR_OPTION,
  ...ALLOW_RISK_OPTION,
  'key-file': { type: 'string' },
  'payer-key-file': { type: 'string' },
  'rc-limit': { type: 'string' },
} as const;

/**
 * Refuses, before anything is signed or a node is asked, operations whose risks the command line did not allow (the
 * approval queue checks them again before the keys sign), and returns the risks: the keys' accounts sign,
 * the network's system tokens and `known` are known, and `withAbi` contracts have the ABI their arguments came from.
 * @throws WalletError INVALID_ARGUMENT listing the --allow-risk options needed.
 */
async function requireAllowedOperations(
  ctx: ChainContext | undefined,
  operations: Operation[],
  keys: (Key | undefined)[],
  allowed: string[],
  more: { known?: string[]; withAbi?: string[] } = {},
): Promise<RiskFlag[]> {
  let knownContracts: string[] = [];
  if (ctx) {
    const { network } = await ctx.networks.node(ctx.networkId);
    const system = await ctx.tokens.systemTokens(network.id).catch(() => []);
    knownContracts = knownContractsOf(network.kind, [...system.map((t) => t.contract), ...(more.known ?? [])]);
  }
  const signers = keys.flatMap((k) => (k ? [addressToString(k.address)] : []));
  const tx: Transaction = { id: new Uint8Array(0), operations, signatures: [] };
  const risks = assessRisks(tx, { signers, knownContracts, contractsWithAbi: more.withAbi ?? [] });
  requireAllowed(risks, allowed);
  return risks;
}

/** `contract upload WASM [--abi FILE] --key-file F [...]`. */
async function upload(argv: string[]): Promise<number> {
  const spec = {
    ...WRITE_OPTIONS,
    abi: { type: 'string' },
    'authorizes-call-contract': { type: 'boolean' },
    'authorizes-transaction-application': { type: 'boolean' },
    'authorizes-upload-contract': { type: 'boolean' },
  } as const;
  const args = parseArgs(argv, spec, 'contract upload');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 1, 'contract upload');
  const wasmPath = args.positionals[0];
  if (!wasmPath) throw new UsageError('"contract upload" needs the WASM file of the contract');
  const allowed = allowedRisks(args);
  const bytecode = await readFileBytes(wasmPath, 'the contract bytecode', MAX_WASM_BYTES);
  // The chain does not parse the module at upload; the magic number catches a wrong file before it costs mana.
  if (
    bytecode.length < 8 ||
    bytecode[0] !== 0 ||
    bytecode[1] !== 0x61 ||
    bytecode[2] !== 0x73 ||
    bytecode[3] !== 0x6d
  ) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `WASM: expected a WebAssembly module (starting "\\0asm"), got ${bytecode.length} bytes that do not start so in ${describe(wasmPath)}`,
    );
  }
  let abiText = '';
  const abiPath = stringOption(args, 'abi');
  if (abiPath !== undefined) {
    abiText = new TextDecoder().decode(await readFileBytes(abiPath, 'the ABI', MAX_ABI_FILE_BYTES));
    parseAbi(abiText); // koinos-cli checks that the ABI reads before it uploads it
  }
  const rcLimit = rcLimitOption(args);
  const key = await readKey(stringOption(args, 'key-file'), '--key-file');
  const payerFile = stringOption(args, 'payer-key-file');
  const payerKey = payerFile === undefined ? undefined : await readKey(payerFile, '--payer-key-file');
  const operation: Operation = {
    upload_contract: {
      contract_id: key.address,
      bytecode,
      abi: abiText,
      authorizes_call_contract: args.options['authorizes-call-contract'] === true,
      authorizes_transaction_application: args.options['authorizes-transaction-application'] === true,
      authorizes_upload_contract: args.options['authorizes-upload-contract'] === true,
    },
  };
  let risks: RiskFlag[];
  try {
    risks = await requireAllowedOperations(undefined, [operation], [key, payerKey], allowed);
  } catch (error) {
    key.privateKey.fill(0);
    payerKey?.privateKey.fill(0);
    throw error;
  }
  const ctx = await chainContext(args, undefined, allowed, 'contract upload').catch((error: unknown) => {
    key.privateKey.fill(0);
    payerKey?.privateKey.fill(0);
    throw error;
  });
  try {
    const done = await submitOperations(ctx, [operation], key, payerKey, rcLimit, risks);
    printJson({
      contract_id: addressToString(key.address),
      transaction_id: done.transactionId,
      status: done.status,
      ...(done.blockHeight ? { block_height: done.blockHeight } : {}),
      receipt: await receiptJson(done.node, done.receipt),
    });
    return EXIT_OK;
  } finally {
    await ctx.close();
    key.privateKey.fill(0);
    payerKey?.privateKey.fill(0);
  }
}

/** The method and its encoded arguments, with errors that name the method list or the field. */
function methodCall(
  abi: ContractAbi,
  name: string | undefined,
  argsText: string | undefined,
): { method: AbiMethod; args: Uint8Array } {
  if (name === undefined)
    throw new UsageError(`a METHOD is required; the ABI has: ${[...abi.methods.keys()].join(', ')}`);
  const method = abi.method(name);
  let args: Uint8Array;
  try {
    args = abi.encodeArguments(method, argumentsJson(argsText));
  } catch (e) {
    if (!(e instanceof WalletError)) throw e;
    throw new WalletError(e.code, `arguments of ${name}: ${e.shortMessage.replace(/^arguments(?: of \S+)?: /, '')}`, {
      metaMessages: e.metaMessages,
      cause: e,
    });
  }
  return { method, args };
}

/** `contract read CONTRACT METHOD [JSON]`. */
async function read(argv: string[]): Promise<number> {
  const args = parseArgs(argv, NETWORK_OPTIONS, 'contract read');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 3, 'contract read');
  const ctx = await chainContext(args);
  try {
    const { node } = await ctx.networks.node(ctx.networkId);
    const contractId = await contractAddress(node, args.positionals[0]);
    const abi = await nodeAbi(node, contractId);
    const { method, args: encoded } = methodCall(abi, args.positionals[1], args.positionals[2]);
    if (!method.readOnly) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `method ${method.name}: expected a read-only method for "contract read", got one that writes; use "contract call"`,
      );
    }
    if (method.return === '' && method.defaultOutput === undefined)
      throw new WalletError('INVALID_ABI', `method ${method.name}: expected a return type in the ABI, got none`);
    printJson(
      abi.decodeResult(method, await node.readContract(addressFromString(contractId), method.entryPoint, encoded)),
    );
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}

/** `contract call CONTRACT METHOD [JSON] --key-file F`. */
async function call(argv: string[]): Promise<number> {
  const args = parseArgs(argv, WRITE_OPTIONS, 'contract call');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 3, 'contract call');
  const rcLimit = rcLimitOption(args);
  const allowed = allowedRisks(args);
  const ctx = await chainContext(args, undefined, allowed, 'contract call');
  let key: Key | undefined;
  let payerKey: Key | undefined;
  try {
    const { node } = await ctx.networks.node(ctx.networkId);
    const contractId = await contractAddress(node, args.positionals[0]);
    // A system contract named by the node (koin, vhp, or any other name it resolves) is one this network holds.
    const bySystemName = !isAddress(args.positionals[0]!);
    const abi = await nodeAbi(node, contractId);
    const { method, args: encoded } = methodCall(abi, args.positionals[1], args.positionals[2]);
    key = await readKey(stringOption(args, 'key-file'), '--key-file');
    const payerFile = stringOption(args, 'payer-key-file');
    payerKey = payerFile === undefined ? undefined : await readKey(payerFile, '--payer-key-file');
    const operation: Operation = {
      call_contract: { contract_id: addressFromString(contractId), entry_point: method.entryPoint, args: encoded },
    };
    const risks = await requireAllowedOperations(ctx, [operation], [key, payerKey], allowed, {
      known: bySystemName ? [contractId] : [],
      withAbi: [contractId],
    });
    const done = await submitOperations(ctx, [operation], key, payerKey, rcLimit, risks);
    printJson({
      transaction_id: done.transactionId,
      status: done.status,
      ...(done.blockHeight ? { block_height: done.blockHeight } : {}),
      receipt: await receiptJson(done.node, done.receipt),
    });
    return EXIT_OK;
  } finally {
    await ctx.close();
    key?.privateKey.fill(0);
    payerKey?.privateKey.fill(0);
  }
}

/** `contract abi CONTRACT`. */
async function abiCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, NETWORK_OPTIONS, 'contract abi');
  if (wantsHelp(args)) return EXIT_OK;
  assertMaxPositionals(args, 1, 'contract abi');
  const ctx = await chainContext(args);
  try {
    const { node } = await ctx.networks.node(ctx.networkId);
    const contractId = await contractAddress(node, args.positionals[0]);
    printJson({ contract_id: contractId, abi: (await nodeAbi(node, contractId)).json });
    return EXIT_OK;
  } finally {
    await ctx.close();
  }
}
