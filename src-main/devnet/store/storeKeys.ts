// The one place that spells the store's keys: every key the devnet reads or writes is built here, so the layout below
// is the whole layout, and a reader of store.ts, chainData.ts, blockBuilder.ts or a revert never meets a bare letter.
//
// Key layout (ASCII prefix + binary):
//   meta                      koinos.devnet.chain_meta        what the chain was created with
//   head                      koinos.devnet.head_record       the last complete block
//   s <tag> <object key>      object value                    chain state (see state.ts for the tags)
//   b <height:8>              koinos.block_store.block_item   block and block receipt
//   h <height:8>              koinos.block_topology           id, height and previous of a block
//   i <block id>              koinos.devnet.record_pointer    height of a block
//   x <height:8> <index:4>    koinos.account_history.transaction_record   transaction and its receipt
//   t <transaction id>        koinos.devnet.record_pointer    where a transaction is
//   a <length:4> <address> <seq:8>   koinos.devnet.record_pointer   account history entry `seq` of an address
//   c <contract id>           koinos.contract_meta_store.contract_meta_item   the ABI uploaded with a contract (abiStore.ts)
// The address in `a` keys carries its length: KOIN (like the real contract) accepts a `to` of any length, and
// every address a transaction impacts gets history records, so the key must not assume 25-byte addresses.

/** `prefix || parts...` as one key. */
function storeKey(prefix: string, ...parts: Uint8Array[]): Uint8Array {
  let length = prefix.length;
  for (const p of parts) length += p.length;
  const key = new Uint8Array(length);
  for (let i = 0; i < prefix.length; i++) key[i] = prefix.charCodeAt(i);
  let offset = prefix.length;
  for (const p of parts) {
    key.set(p, offset);
    offset += p.length;
  }
  return key;
}

/**
 * Bytes as a string with one character per byte (latin1): the devnet's map key for binary keys and addresses.
 * @example
 * keyText(Uint8Array.of(0, 255)); // '\u0000\u00ff'
 */
export function keyText(bytes: Uint8Array): string {
  if (bytes.length > TEXT_SCRATCH.length) return Buffer.from(bytes).toString('latin1');
  // Copied into a scratch buffer, not viewed through `bytes.buffer`: reading `.buffer` of a small typed array moves
  // its bytes out of the JavaScript heap into memory of their own (V8 keeps arrays of up to 64 bytes inline), so that
  // every key made that way cost an allocation and a free on the C heap, several times the cost of the text itself.
  TEXT_SCRATCH.set(bytes, 0);
  return TEXT_SCRATCH.toString('latin1', 0, bytes.length);
}

/** keyText's scratch: keys and addresses are tens of bytes; a longer text goes through a Buffer of its own. */
const TEXT_SCRATCH = Buffer.allocUnsafeSlow(1024);

/** The bytes of a {@link keyText} string. */
export function keyTextBytes(text: string): Uint8Array {
  // A loop: for keys (tens of bytes) it is about twice as fast as going through a Buffer and copying it.
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Big-endian 8-byte encoding, so that heights and sequence numbers sort in key order. */
function u64Key(value: bigint | number): Uint8Array {
  // Two 32-bit halves, written without a DataView over `out.buffer` (see keyText).
  const high = typeof value === 'bigint' ? Number(value >> 32n) : Math.floor(value / 2 ** 32);
  const low = typeof value === 'bigint' ? Number(value & 0xffffffffn) : value >>> 0;
  return Uint8Array.of(
    high >>> 24,
    (high >>> 16) & 0xff,
    (high >>> 8) & 0xff,
    high & 0xff,
    low >>> 24,
    (low >>> 16) & 0xff,
    (low >>> 8) & 0xff,
    low & 0xff,
  );
}

/** Big-endian 4-byte encoding. */
function u32Key(value: number): Uint8Array {
  return Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

/** `meta`: what the chain was created with. */
export function metaKey(): Uint8Array {
  return storeKey('meta');
}

/** `head`: the last complete block. */
export function headKey(): Uint8Array {
  return storeKey('head');
}

/** `b <height:8>`: the block item (block and receipt) at a height. */
export function blockKey(height: bigint | number): Uint8Array {
  return storeKey('b', u64Key(height));
}

/** `h <height:8>`: the topology (id, height, previous) of the block at a height. */
export function topologyKey(height: bigint | number): Uint8Array {
  return storeKey('h', u64Key(height));
}

/** `i <block id>`: the height of a block. */
export function blockIdKey(id: Uint8Array): Uint8Array {
  return storeKey('i', id);
}

/** `x <height:8> <index:4>`: a transaction and its receipt, by block height and place in the block. */
export function transactionRecordKey(height: bigint | number, index: number): Uint8Array {
  return storeKey('x', u64Key(height), u32Key(index));
}

/** `t <transaction id>`: where a transaction is. */
export function transactionKey(id: Uint8Array): Uint8Array {
  return storeKey('t', id);
}

/** `s <object key>`: a state object, by its key text (state.ts stateKey). */
export function stateObjectKey(key: string): Uint8Array {
  return storeKey('s', keyTextBytes(key));
}

/** The prefix of every state object key, to read the whole state. */
export function stateObjectPrefix(): Uint8Array {
  return storeKey('s');
}

/** The key text (state.ts stateKey) of a {@link stateObjectKey}. */
export function stateObjectText(key: Uint8Array): string {
  return keyText(key.subarray(1));
}

/** `c <contract id>`: the contract meta store's item of a contract (abiStore.ts). */
export function abiKey(contractId: Uint8Array): Uint8Array {
  return storeKey('c', contractId);
}

/** The prefix of every contract meta item key. */
export function abiPrefix(): Uint8Array {
  return storeKey('c');
}

/** The contract id (as keyText) of an {@link abiKey}. */
export function abiKeyText(key: Uint8Array): string {
  return keyText(key.subarray(1));
}

/** Key of account history record `seq` of `address`: `a <length:4> <address> <seq:8>`. */
export function historyKey(address: Uint8Array, seq: bigint | number): Uint8Array {
  return storeKey('a', u32Key(address.length), address, u64Key(seq));
}

/** The prefix of every account history key. */
export function historyPrefix(): Uint8Array {
  return storeKey('a');
}

/**
 * The address and sequence number of a history key.
 * @throws Error when the key is not `a <length:4> <address> <seq:8>` (a data directory of another layout).
 */
export function parseHistoryKey(key: Uint8Array): { address: Uint8Array; seq: bigint } {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const length = key.length >= 5 ? view.getUint32(1) : -1;
  if (key[0] !== 0x61 || length < 0 || key.length !== 1 + 4 + length + 8) {
    throw new Error(`the account history in the data directory has a malformed key (${key.length} bytes)`);
  }
  return { address: key.subarray(5, 5 + length), seq: view.getBigUint64(5 + length) };
}
