// The key file of `key new --out F` ({"address", "public_key", "wif"}, readable by its owner alone) and reading a key
// back from such a file or from plain WIF / hex text. Nothing here ever puts the key in an error text.
import { open, rm } from 'node:fs/promises';
import { addressFromPublicKey, addressToString } from '../koinos/address.ts';
import { WalletError, describe } from '../koinos/errors.ts';
import { parsePrivateKey, publicKeyFromPrivateKey, type ParsedPrivateKey } from '../koinos/keys.ts';
import { rememberSecret } from './io.ts';

/** File mode of a key file: read and write for the owner, nothing for anyone else. */
const KEY_FILE_MODE = 0o600;

/**
 * Writes a new key file with mode 0600. An existing file is never replaced (it may hold another key), and a file whose
 * write failed is removed (a full disk, a size limit): no file with part of the key in it stays behind.
 * @throws WalletError INVALID_ARGUMENT when the file exists or cannot be created, STORAGE_FAILED when it cannot be
 *   written; saying which.
 * @example
 * await writeKeyFile('key.json', JSON.stringify({ address, public_key, wif }) + '\n');
 */
export async function writeKeyFile(path: string, content: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'wx', KEY_FILE_MODE);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST'
        ? 'the file exists (a key file is never overwritten; choose another name or move the old one)'
        : code === 'ENOENT'
          ? 'its folder does not exist'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'it is a folder'
              : (code ?? 'the system refused');
    throw new WalletError('INVALID_ARGUMENT', `cannot write the key file ${JSON.stringify(path)}: ${why}`, { cause });
  }
  try {
    // The mode given to open() is reduced by the umask only, never widened; chmod makes it exact on every platform.
    await handle.chmod(KEY_FILE_MODE);
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (cause) {
    await handle.close().catch(() => {});
    // The file is this call's (opened with wx): the part of the key written must not stay on the disk, and the name
    // must be free for the next try.
    await rm(path, { force: true }).catch(() => {});
    throw new WalletError(
      'STORAGE_FAILED',
      `cannot write the key file ${JSON.stringify(path)}: ${writeFailure((cause as NodeJS.ErrnoException).code)}; the unfinished file was removed`,
      { cause },
    );
  }
  await handle.close();
}

/** Why writing to a file already opened failed, from its system error code. */
function writeFailure(code: string | undefined): string {
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EFBIG':
      return 'the file is larger than this process may write (ulimit -f)';
    case 'EIO':
      return 'the disk reported an input/output error';
    default:
      return `the system refused (${code ?? 'unknown error'})`;
  }
}

/**
 * Reads a private key from what a user gives: WIF, 64 hex digits, or the JSON that `key new` prints and writes
 * ({"wif", and optionally "address"}). When the JSON names an address, it must be the key's own.
 * @throws WalletError INVALID_JSON for JSON without a "wif" string or with an address of another key;
 *   INVALID_WIF / INVALID_PRIVATE_KEY as {@link parsePrivateKey}. The key is never quoted.
 * @example
 * keyFromText('{"address":"1…","public_key":"02…","wif":"L…"}'); // { privateKey, compressed: true }
 */
export function keyFromText(text: string): ParsedPrivateKey {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return parsePrivateKey(trimmed);
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    // JSON.parse's message quotes the text, which holds the key: it is not passed on.
    throw new WalletError(
      'INVALID_JSON',
      'expected a key file as JSON {"wif": ...} (what "key new" writes), got text that starts with "{" but does not parse',
    );
  }
  const record = json as { wif?: unknown; address?: unknown };
  if (typeof record !== 'object' || record === null || typeof record.wif !== 'string') {
    throw new WalletError(
      'INVALID_JSON',
      'expected a key file as JSON with a "wif" string (what "key new" writes), got JSON without one',
    );
  }
  rememberSecret(record.wif);
  const parsed = parsePrivateKey(record.wif);
  if (record.address !== undefined) {
    const own = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(parsed.privateKey, true)));
    if (record.address !== own) {
      throw new WalletError(
        'INVALID_JSON',
        `the key file names the address ${describe(record.address)}, but its key is the key of ${own}`,
        {
          metaMessages: ['The file was edited or mixed up with another; do not use it until you know which is right.'],
        },
      );
    }
  }
  return parsed;
}
