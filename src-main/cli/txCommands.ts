// `koinos-wallet tx decode | encode | sign`: offline handling of transactions in the two forms wallets exchange,
// the URL-safe base64 of the protobuf bytes (as koinos-cli prints it) and the gateway's JSON.
import { BTYPE, bytesToJson } from '../koinos/codec.ts';
import { equalBytes } from '../koinos/bytes.ts';
import { WalletError, describe } from '../koinos/errors.ts';
import { KOIN_METHODS, decodeOperationJson } from '../koinos/koin.ts';
import { KNOWN_TOKEN_CONTRACTS, knownTokenContract } from '../koinos/knownContracts.ts';
import { addressFromString, addressToString } from '../koinos/address.ts';
import { parseTransactionText } from '../koinos/transactionText.ts';
import {
  checkTransaction,
  nonceFromBytes,
  prepareTransaction,
  recoverSigners,
  transactionToBase64,
  transactionToJson,
} from '../koinos/transaction.ts';
import type { Transaction } from '../koinos/types.ts';
import type { RiskFlag } from '../wallet/chain/types.ts';
import { assessRisks, knownContractsOf } from '../wallet/chain/riskFlags.ts';
import { isKnownSharer, partiesOf, signaturesNeeded } from '../wallet/chain/payer.ts';
import {
  EXIT_OK,
  UsageError,
  assertMaxPositionals,
  isStdinInput,
  listOption,
  parseArgs,
  printJson,
  printText,
  readInput,
  readSecret,
  stringOption,
  warn,
  shownWord,
} from './io.ts';
import { keyFromText } from './keyFile.ts';
import { ALLOW_RISK_OPTION, ALLOW_RISK_USAGE, allowedRisks } from './riskGate.ts';
import { SYSTEM_TOKENS, commandLineApprovals, signApprovedByCommandLine } from './commandLineApproval.ts';
import { formatAmount } from '../koinos/amounts.ts';
import { decodeOperation } from '../wallet/chain/operations.ts';
import { knownChainName } from '../wallet/dapps/chains.ts';
import { assertReadyToSign } from '../koinos/signingChecks.ts';
import { PrivateKeySigner } from '../wallet/chain/privateKeySigner.ts';

/** The token contracts `tx decode` knows without `--koin`, listed in the usage. */
const KNOWN_LIST = KNOWN_TOKEN_CONTRACTS.map((c) => `${c.network} ${c.token.toUpperCase()} ${c.address}`).join(
  ',\n        ',
);

/** Usage of the `tx` commands, also part of the top-level `--help`. */
export const TX_USAGE = `Transactions:
  INPUT is a transaction as the URL-safe base64 of its protobuf bytes (what koinos-cli and "tx encode" print,
  bare or as a JSON string), as JSON (the node's form; operations may also be written decoded, as "tx decode"
  prints them; the whole "tx decode" output is accepted too), @FILE to read it from a file, or - (or nothing)
  to read it from stdin. Text starting with "{" is read as JSON.

  koinos-wallet tx decode [INPUT] [--koin ADDRESS]...
      Prints {"transaction", "computed_id", "id_matches", "operation_merkle_root_matches", "signers",
      "signatures_present", "signatures_needed", "operations", "summary", "risks"}: the transaction's JSON, the id computed from its header ("0x1220..."), whether the id and
      the operation merkle root it carries match its content (null, with a "note", for an unsigned transaction
      that has no id or merkle root yet), the address recovered from each signature (null for a signature that
      does not recover; "signer_errors" then lists [{"signature": index, "error"}]), which of the payer and the payee
      signed it and whose signatures it still needs (the free mana sharer of mainnet or testnet, a contract, signs
      nothing), and the operations with
      token calls decoded ("entry_point": method name, "args": object), what it does in words ({"network": mainnet
      or Harbinger by its chain ID, else null, "nonce": the number, "mana_limit": in mana, "operations": one
      sentence each, KOIN and VHP amounts in tokens}), and the risks to look at twice before signing it
      ([{"code", "name", "message"}]: an upload, a governance operation, a call to an unknown contract or with
      arguments that do not decode, a transfer to the signer itself, an allowance). Known without --koin:
        ${KNOWN_LIST};
      --koin names any other token contract that follows the same standard.

  koinos-wallet tx encode [INPUT]
      Reads a transaction's JSON and prints the URL-safe base64 of its canonical protobuf bytes as a JSON string
      ("CiIS..."; jq -r . gives the bare text). Operations written decoded are encoded with the KOIN method
      table (${Object.keys(KOIN_METHODS).join(', ')}).
      Nothing is computed: the id and the merkle root are kept as given.

  koinos-wallet tx sign [INPUT] [--wif-file FILE] [--json] [--allow-risk NAME]...
      Computes the operation merkle root and the id from the content and appends a signature by the key read
      from FILE (WIF, hex or the JSON file of "key new --out"; or from stdin when INPUT is an argument or @FILE). Prints the signed transaction as a base64 JSON
      string, or as the node's JSON with --json. Refuses a transaction without chain_id, nonce, rc_limit or
      payer, with an unknown or misspelled field or an address whose checksum does not match, a KOIN or VHP
      transfer without from, to or value, one whose existing signatures were made over another id, and a second
      signature by the same key, and one with risks (as "tx decode" lists them, the signing key counted as a signer)
      that --allow-risk does not name. Sign again with another key to add more signatures. Before it signs, it
      prints on stderr what it signs, in the words of the app's approval dialog.
      ${ALLOW_RISK_USAGE}`;

/**
 * A predicate telling token contract ids whose calls `tx decode` decodes: KOIN and VHP of mainnet, testnet and the
 * devnet (knownContracts.ts), plus those given with --koin (base58, checked as addresses).
 * @throws WalletError INVALID_ADDRESS naming the --koin value that is not a valid address.
 */
function koinPredicate(extra: string[] = []): (contractId: Uint8Array) => boolean {
  const ids = new Set(
    extra.map((a) => {
      try {
        return addressToString(addressFromString(a));
      } catch (cause) {
        if (!(cause instanceof WalletError)) throw cause;
        throw new WalletError('INVALID_ADDRESS', `--koin: ${cause.shortMessage}`, {
          metaMessages: cause.metaMessages,
          cause,
        });
      }
    }),
  );
  return (contractId) =>
    knownTokenContract(contractId) !== undefined || (contractId.length === 25 && ids.has(addressToString(contractId)));
}

/** What `tx decode` prints. */
export interface DecodedTransaction {
  transaction: unknown;
  computed_id: string;
  /** Whether the id the transaction carries is the one its header gives; null when it carries none yet (unsigned). */
  id_matches: boolean | null;
  /** Likewise for the operation merkle root in its header. */
  operation_merkle_root_matches: boolean | null;
  /** Present when the transaction has no id or merkle root yet: says so, and what fills them in. */
  note?: string;
  signers: (string | null)[];
  signer_errors?: { signature: number; error: string }[];
  /** The payer and payee (when it names one) whose signatures it carries. */
  signatures_present: string[];
  /** The payer and payee whose signatures it still needs: a known free mana sharer (a contract payer) needs none. */
  signatures_needed: string[];
  operations: unknown[];
  /**
   * What it does, as a person reads it (the words of the signing review): the network when its chain ID is mainnet's
   * or Harbinger's, the nonce as a number, the mana cap in mana, and one sentence per operation.
   */
  summary: { network: string | null; nonce: string | null; mana_limit: string; operations: string[] };
  /** What to look at twice before signing it, assessed as if its payer, payee and present signers sign it. */
  risks: RiskFlag[];
}

/**
 * The risks of signing `tx` as `signer` (absent: as its payer and payee, who must sign it anyway), with the token
 * contracts of every known network and `tokens` known.
 */
export function transactionRisks(tx: Transaction, tokens: readonly string[] = [], signer?: string): RiskFlag[] {
  const header = tx.header!;
  const parties = [header.payer, header.payee].filter((a) => a.length > 0).map((a) => addressToString(a));
  const signed = checkTransaction(tx).signers.flatMap((s) => (s.address ? [s.address] : []));
  return assessRisks(tx, {
    signers: [...(signer ? [signer] : []), ...parties, ...signed],
    knownContracts: knownContractsOf(undefined, tokens),
  });
}

/**
 * The `tx decode` report of a transaction.
 * @throws WalletError INVALID_TRANSACTION when it has no header.
 */
function decodeTransaction(
  tx: Transaction,
  isKoin: (contractId: Uint8Array) => boolean,
  tokens: readonly string[] = [],
): DecodedTransaction {
  const check = checkTransaction(tx);
  const noId = tx.id.length === 0;
  const noRoot = tx.header!.operation_merkle_root.length === 0;
  const missing = [noId && 'id', noRoot && 'operation merkle root'].filter(Boolean).join(' and ');
  const them = noId && noRoot ? 'them' : 'it';
  // Signatures over a header without its merkle root were made over the root computed from the content (as tx sign
  // makes them): read from the given header, they would name keys that never signed.
  const signers = noRoot && tx.signatures.length > 0 ? recoverSigners(prepareTransaction(tx)) : check.signers;
  const errors = signers.flatMap((s, i) =>
    s.address ? [] : [{ signature: i, error: s.error ?? 'signature does not recover' }],
  );
  return {
    transaction: transactionToJson(tx),
    computed_id: bytesToJson(check.computedId, BTYPE.TRANSACTION_ID),
    id_matches: noId ? null : check.idMatches,
    operation_merkle_root_matches: noRoot ? null : check.merkleRootMatches,
    ...(missing
      ? {
          note:
            tx.signatures.length > 0
              ? `the transaction has signatures but no ${missing}: its signers are read from its content as "tx sign" computes ${them}`
              : `the transaction has no ${missing} yet: it is unsigned; "tx sign" computes ${them} from the content`,
        }
      : {}),
    signers: signers.map((s) => s.address ?? null),
    ...(errors.length > 0 ? { signer_errors: errors } : {}),
    ...signatureStatus(
      tx,
      signers.flatMap((s) => (s.address ? [s.address] : [])),
    ),
    operations: tx.operations.map((op) => decodeOperationJson(op, isKoin)),
    summary: summaryOf(tx),
    risks: transactionRisks(tx, tokens),
  };
}

/** The `summary` of `tx decode`. */
function summaryOf(tx: Transaction): DecodedTransaction['summary'] {
  const header = tx.header!;
  let nonce: string | null = null;
  try {
    nonce = nonceFromBytes(header.nonce).toString();
  } catch {
    // Not a value_type message: the header's own text shows what it holds.
  }
  return {
    network: knownChainName(header.chain_id) ?? null,
    nonce,
    mana_limit: formatAmount(header.rc_limit),
    operations: tx.operations.map((op) => {
      const decoded = decodeOperation(op, SYSTEM_TOKENS);
      return decoded.summary ?? `Call ${decoded.entryPoint} of ${decoded.contract}`;
    }),
  };
}

/** Which of the payer and payee signed `tx` (recovered `signers`) and whose signatures it still needs. */
function signatureStatus(
  tx: Transaction,
  signers: readonly string[],
): { signatures_present: string[]; signatures_needed: string[] } {
  const parties = partiesOf(tx.header!);
  const present = [parties.payer, ...(parties.payee && parties.payee !== parties.payer ? [parties.payee] : [])].filter(
    (a) => a !== '' && signers.includes(a),
  );
  return {
    signatures_present: present,
    signatures_needed: signaturesNeeded(parties, present, isKnownSharer(parties.payer)),
  };
}

/**
 * Runs `tx <subcommand> ...` and returns the exit code.
 * @throws UsageError for an unknown subcommand or option; WalletError for input that is not a usable transaction.
 */
export async function txCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'decode':
      return txDecode(rest);
    case 'encode':
      return txEncode(rest);
    case 'sign':
      return txSign(rest);
    case 'submit':
      return (await import('./chainCommands.ts')).txSubmitCommand(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      printText(TX_USAGE);
      return EXIT_OK;
    default:
      throw new UsageError(
        `unknown command of tx ${shownWord(sub)}; expected "tx decode", "tx encode", "tx sign" or "tx submit"`,
      );
  }
}

const TRANSACTION = 'a transaction (base64 or JSON)';

async function txDecode(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { koin: { type: 'string', multiple: true } }, 'tx decode');
  if (args.help) {
    printText(TX_USAGE);
    return EXIT_OK;
  }
  assertMaxPositionals(args, 1, 'tx decode');
  const tokens = listOption(args, 'koin');
  const isKoin = koinPredicate(tokens);
  const tx = parseTransactionText(await readInput(args.positionals[0], TRANSACTION));
  printJson(decodeTransaction(tx, isKoin, tokens));
  return EXIT_OK;
}

async function txEncode(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {}, 'tx encode');
  if (args.help) {
    printText(TX_USAGE);
    return EXIT_OK;
  }
  assertMaxPositionals(args, 1, 'tx encode');
  const tx = parseTransactionText(await readInput(args.positionals[0], TRANSACTION));
  printJson(transactionToBase64(tx));
  return EXIT_OK;
}

async function txSign(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    { 'wif-file': { type: 'string' }, json: { type: 'boolean' }, ...ALLOW_RISK_OPTION },
    'tx sign',
  );
  if (args.help) {
    printText(TX_USAGE);
    return EXIT_OK;
  }
  assertMaxPositionals(args, 1, 'tx sign', 'the key is read from --wif-file FILE, never from an argument');
  const input = args.positionals[0];
  const keyFile = stringOption(args, 'wif-file');
  if (isStdinInput(input) && isStdinInput(keyFile)) {
    throw new UsageError(
      '"tx sign" cannot read both the transaction and the key from stdin: give --wif-file FILE, or the transaction as an argument or @FILE',
    );
  }
  const allowed = allowedRisks(args);
  // The transaction is read and checked first, so that a bad transaction does not wait for a key on stdin.
  const tx = parseTransactionText(await readInput(input, TRANSACTION));
  const { privateKey } = keyFromText(
    await readSecret(keyFile, 'a private key (WIF, 64 hex digits or a key new --out file)'),
  );
  const keys = new PrivateKeySigner([privateKey]);
  privateKey.fill(0);
  const signer = keys.addresses[0]!;
  let signed: Transaction;
  try {
    assertReadyToSign(tx);
    // The content as signed: merkle root and id computed from it, whatever the header says of them.
    const prepared = prepareTransaction(tx);
    const id = prepared.id;
    if (tx.signatures.length > 0 && !equalBytes(id, tx.id)) {
      throw new WalletError(
        'INVALID_TRANSACTION',
        `the transaction carries ${tx.signatures.length} signature(s) over id ${describe(bytesToJson(tx.id, BTYPE.TRANSACTION_ID))}, but its content gives id ${bytesToJson(id, BTYPE.TRANSACTION_ID)}; remove the old signatures or restore the content they signed`,
      );
    }
    if (recoverSigners(prepared).some((s) => s.address === signer)) {
      throw new WalletError(
        'INVALID_TRANSACTION',
        `the transaction is already signed by ${signer}; sign with another key to add a signature`,
      );
    }
    // The command line is the approval: the queue refuses, before the signature, a risk --allow-risk does not name.
    signed = await signApprovedByCommandLine(
      commandLineApprovals(allowed),
      keys,
      signer,
      tx,
      transactionRisks(prepared, [], signer),
    );
  } finally {
    keys.wipe();
  }
  const header = signed.header!;
  const payer = header.payer.length > 0 ? addressToString(header.payer) : undefined;
  const payee = header.payee.length > 0 ? addressToString(header.payee) : undefined;
  if (payer !== undefined && signer !== payer && signer !== payee) {
    const parties = payee ? `neither the payer (${payer}) nor the payee (${payee})` : `not the payer (${payer})`;
    warn(
      `the signing key's address ${signer} is ${parties}; the node counts this signature only where a contract asks for it`,
    );
  }

  printJson(args.options.json ? transactionToJson(signed) : transactionToBase64(signed));
  return EXIT_OK;
}
