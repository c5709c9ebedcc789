// `koinos-wallet key new` and `key inspect`: make a key, or show the address and public key of one read from a
// file or stdin. Koinos derives the address from the compressed public key whatever form the WIF has.
import { toHex } from '../koinos/bytes.ts';
import { addressFromPublicKey, addressToString } from '../koinos/address.ts';
import { newPrivateKey, privateKeyToWif, publicKeyFromPrivateKey } from '../koinos/keys.ts';
import { keyFromText, writeKeyFile } from './keyFile.ts';
import {
  EXIT_OK,
  UsageError,
  assertMaxPositionals,
  parseArgs,
  printJson,
  printText,
  readSecret,
  stringOption,
  warn,
  shownWord,
} from './io.ts';

/** Usage of the `key` commands, also part of the top-level `--help`. */
export const KEY_USAGE = `Keys:
  koinos-wallet key new [--out FILE]
      Makes a new random private key. Prints {"address", "public_key", "wif"}: the address (base58), the
      compressed public key (hex) and the private key as compressed WIF. The output is secret: store it safely.
      With --out, writes that JSON to FILE (a new file, readable by its owner alone: mode 0600) and prints
      only {"address", "public_key", "file"}.

  koinos-wallet key inspect [--wif-file FILE]
      Reads a private key (WIF, compressed or not, 64 hex digits, or the JSON file "key new --out" writes) from
      FILE or, without --wif-file (or with --wif-file -), from stdin; typed at a terminal, it is not shown. Prints {"address", "public_key", "compressed"}: the address and the compressed
      public key that Koinos uses for this key (the chain always derives the address from the compressed key,
      also for a key written as uncompressed WIF), and whether the WIF carried the compression flag.

  A private key is never accepted as an argument (--wif is refused): arguments end up in shell history.`;

/** The output of `key new` and `key inspect` without the secret. */
export interface KeyInfo {
  address: string;
  public_key: string;
}

function keyInfo(privateKey: Uint8Array): KeyInfo {
  const publicKey = publicKeyFromPrivateKey(privateKey, true);
  return { address: addressToString(addressFromPublicKey(publicKey)), public_key: toHex(publicKey) };
}

/**
 * Runs `key <subcommand> ...` and returns the exit code.
 * @throws UsageError for an unknown subcommand or option; WalletError INVALID_WIF / INVALID_PRIVATE_KEY for a bad key.
 */
export async function keyCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'new':
      return keyNew(rest);
    case 'inspect':
      return keyInspect(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      printText(KEY_USAGE);
      return EXIT_OK;
    default:
      throw new UsageError(`unknown command of key ${shownWord(sub)}; expected "key new" or "key inspect"`);
  }
}

async function keyNew(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { out: { type: 'string' } }, 'key new');
  if (args.help) {
    printText(KEY_USAGE);
    return EXIT_OK;
  }
  assertMaxPositionals(args, 0, 'key new');
  const privateKey = newPrivateKey();
  const out = stringOption(args, 'out');
  if (out !== undefined) {
    if (out === '' || out === '-')
      throw new UsageError('option --out of "key new" expects a file name (leave it out to print the key)');
    const info = keyInfo(privateKey);
    await writeKeyFile(out, `${JSON.stringify({ ...info, wif: privateKeyToWif(privateKey, true) }, null, 2)}\n`);
    printJson({ ...info, file: out });
    return EXIT_OK;
  }
  printJson({ ...keyInfo(privateKey), wif: privateKeyToWif(privateKey, true) });
  warn(
    'the output contains a private key (wif): anyone who has it controls the address; store it safely and share only the address',
  );
  return EXIT_OK;
}

async function keyInspect(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { 'wif-file': { type: 'string' } }, 'key inspect');
  if (args.help) {
    printText(KEY_USAGE);
    return EXIT_OK;
  }
  assertMaxPositionals(args, 0, 'key inspect', 'the key is read from --wif-file FILE or stdin, never from an argument');
  const text = await readSecret(stringOption(args, 'wif-file'), 'a private key (WIF or 64 hex digits)');
  const { privateKey, compressed } = keyFromText(text);
  printJson({ ...keyInfo(privateKey), compressed });
  return EXIT_OK;
}
