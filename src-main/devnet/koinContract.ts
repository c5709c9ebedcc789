// KOIN as a built-in system contract of the devnet: the methods, messages, storage layout, events and error
// texts of the real contract (contracts-as contracts/koin/assembly/Koin.ts), run natively instead of in a VM.
// Also the mana rules of facts §3.10: max mana = balance, lazy regeneration over 5 days.
import { UINT64_MAX } from '../koinos/amounts.ts';
import { equalBytes } from '../koinos/bytes.ts';
import { decode, encode } from '../koinos/codec.ts';
import { koinMethodByEntryPoint } from '../koinos/koin.ts';
import type { EventData } from '../koinos/types.ts';
import { ChainError, ERROR_CODE, reversion } from './chainError.ts';
import { COMPUTE, type RcMeter } from './resources.ts';
import type { StateView } from './state.ts';

/** Mana regenerates fully in 5 days (ms). */
export const MANA_REGEN_TIME_MS = 432_000_000n;

/** KOIN's name, symbol and decimals (the real contract's, not the test build's "Test Koin"/"tKOIN"). */
export const KOIN_NAME = 'Koin';
export const KOIN_SYMBOL = 'KOIN';
export const KOIN_DECIMALS = 8;

/** Event names as mainnet receipts show them (koilib Provider sample, docs offline-signing receipt). */
export const KOIN_EVENTS = {
  transfer: 'koinos.contracts.token.transfer_event',
  mint: 'koinos.contracts.token.mint_event',
  burn: 'koinos.contracts.token.burn_event',
} as const;

const EMPTY = new Uint8Array(0);
const MANA_BALANCE = 'koinos.contracts.koin.mana_balance_object';
const BALANCE = 'koinos.contracts.token.balance_object';

/** An account's KOIN record (`mana_balance_object`). */
export interface ManaBalance {
  balance: bigint;
  mana: bigint;
  last_mana_update: bigint;
}

/** An account's KOIN record in a state layer (all zero when it has none). */
export function readBalance(view: StateView, address: Uint8Array): ManaBalance {
  const bytes = view.get('B', address);
  if (!bytes) return { balance: 0n, mana: 0n, last_mana_update: 0n };
  return decode<ManaBalance>(MANA_BALANCE, bytes);
}

/** Canonical bytes of a KOIN record. */
export function encodeBalance(value: ManaBalance): Uint8Array {
  return encode(MANA_BALANCE, value);
}

/** KOIN's total supply in a state layer. */
export function readSupply(view: StateView): bigint {
  const bytes = view.get('S', EMPTY);
  return bytes ? decode<{ value: bigint }>(BALANCE, bytes).value : 0n;
}

/** Canonical bytes of the supply object (token balance_object). */
export function encodeSupply(value: bigint): Uint8Array {
  return encode(BALANCE, { value });
}

/**
 * Regenerates mana up to `headBlockTime` (ms), in place: `mana += floor(delta × balance / 5 days)` capped at the
 * balance, with delta = time since the last update capped at 5 days (Koin.ts `_regenerate_mana`).
 */
export function regenerateMana(record: ManaBalance, headBlockTime: bigint): void {
  let delta = headBlockTime - record.last_mana_update;
  if (delta > MANA_REGEN_TIME_MS) delta = MANA_REGEN_TIME_MS;
  if (delta <= 0n) return;
  const mana = record.mana + (delta * record.balance) / MANA_REGEN_TIME_MS;
  record.mana = mana < record.balance ? mana : record.balance;
  record.last_mana_update = headBlockTime;
}

/** Current mana of an account (what `chain.get_account_rc` answers). */
export function accountRc(view: StateView, address: Uint8Array, headBlockTime: bigint): bigint {
  const record = readBalance(view, address);
  regenerateMana(record, headBlockTime);
  return record.mana;
}

/**
 * Takes `value` mana from an account after regenerating it (Koin.ts `consume_account_rc`); false, and nothing
 * written, when the account has less.
 */
export function consumeAccountRc(view: StateView, address: Uint8Array, value: bigint, headBlockTime: bigint): boolean {
  const record = readBalance(view, address);
  regenerateMana(record, headBlockTime);
  if (record.mana < value) return false;
  record.mana -= value;
  view.put('B', address, encodeBalance(record));
  return true;
}

/** What a KOIN call may use: the state layer, the meter (absent for read-only calls), the clock and the signers. */
export interface KoinCallContext {
  view: StateView;
  meter?: RcMeter;
  headBlockTime: bigint;
  readOnly: boolean;
  koinAddress: Uint8Array;
  genesisAddress: Uint8Array;
  /** Events of the transaction so far; new events are appended with the next sequence number. */
  events: EventData[];
  /** check_authority(contract_call, account): whether a signature of the transaction recovers to `account`. */
  authorize(account: Uint8Array): boolean;
}

function useCompute(ctx: KoinCallContext, ticks: number): void {
  ctx.meter?.useCompute(ticks);
}

function put(ctx: KoinCallContext, tag: 'B' | 'S', key: Uint8Array, value: Uint8Array): void {
  if (ctx.readOnly) throw reversion('cannot put object during read only call', ERROR_CODE.read_only_context);
  useCompute(ctx, COMPUTE.put_object);
  const disk = ctx.view.put(tag, key, value);
  ctx.meter?.useDisk(disk);
}

function getBalance(ctx: KoinCallContext, address: Uint8Array): ManaBalance {
  useCompute(ctx, COMPUTE.get_object);
  return readBalance(ctx.view, address);
}

function check(condition: boolean, message: string, code: number = ERROR_CODE.reversion): asserts condition {
  if (!condition) throw new ChainError(code, message);
}

function emit(ctx: KoinCallContext, name: string, type: string, data: object, impacted: Uint8Array[]): void {
  useCompute(ctx, COMPUTE.event);
  ctx.events.push({ sequence: ctx.events.length, source: ctx.koinAddress, name, data: encode(type, data), impacted });
}

function decodeArgs<T>(type: string, args: Uint8Array): T {
  try {
    return decode<T>(type, args);
  } catch {
    throw reversion('unable to decode arguments');
  }
}

interface TransferArgs {
  from: Uint8Array;
  to: Uint8Array;
  value: bigint;
  memo: string;
}

function transfer(ctx: KoinCallContext, args: TransferArgs): void {
  useCompute(ctx, COMPUTE.koin_transfer);
  check(args.to.length > 0, "account 'to' cannot be null");
  check(args.from.length > 0, "account 'from' cannot be null");
  check(!equalBytes(args.from, args.to), 'cannot transfer to yourself');
  check(ctx.authorize(args.from), "account 'from' has not authorized transfer", ERROR_CODE.authorization_failure);
  const from = getBalance(ctx, args.from);
  check(from.balance >= args.value, "account 'from' has insufficient balance", ERROR_CODE.failure);
  regenerateMana(from, ctx.headBlockTime);
  check(from.mana >= args.value, "account 'from' has insufficient mana for transfer", ERROR_CODE.failure);
  const to = getBalance(ctx, args.to);
  regenerateMana(to, ctx.headBlockTime);
  from.balance -= args.value;
  from.mana -= args.value;
  to.balance += args.value;
  to.mana += args.value;
  put(ctx, 'B', args.from, encodeBalance(from));
  put(ctx, 'B', args.to, encodeBalance(to));
  emit(ctx, KOIN_EVENTS.transfer, 'koinos.contracts.token.transfer_event', { from: args.from, to: args.to, value: args.value, memo: args.memo }, [
    args.to,
    args.from,
  ]);
}

function mint(ctx: KoinCallContext, args: { to: Uint8Array; value: bigint }): void {
  useCompute(ctx, COMPUTE.koin_mint);
  check(args.to.length > 0, "account 'to' cannot be null");
  check(args.value !== 0n, "account 'value' cannot be zero");
  // The real contract mints only from kernel mode; on the devnet a signature of the genesis key stands for that.
  check(ctx.authorize(ctx.genesisAddress), 'insufficient privileges to mint', ERROR_CODE.authorization_failure);
  const supply = readSupply(ctx.view);
  check(supply <= UINT64_MAX - args.value, 'mint would overflow supply', ERROR_CODE.failure);
  const balance = getBalance(ctx, args.to);
  regenerateMana(balance, ctx.headBlockTime);
  balance.balance += args.value;
  balance.mana += args.value;
  put(ctx, 'S', EMPTY, encodeSupply(supply + args.value));
  put(ctx, 'B', args.to, encodeBalance(balance));
  emit(ctx, KOIN_EVENTS.mint, 'koinos.contracts.token.mint_event', { to: args.to, value: args.value }, [args.to]);
}

function burn(ctx: KoinCallContext, args: { from: Uint8Array; value: bigint }): void {
  useCompute(ctx, COMPUTE.koin_burn);
  check(args.from.length > 0, "account 'from' cannot be null");
  check(ctx.authorize(args.from), "account 'from' has not authorized burn", ERROR_CODE.authorization_failure);
  const from = getBalance(ctx, args.from);
  check(from.balance >= args.value, "account 'from' has insufficient balance", ERROR_CODE.failure);
  regenerateMana(from, ctx.headBlockTime);
  check(from.mana >= args.value, "account 'from' has insufficient mana for burn", ERROR_CODE.failure);
  const supply = readSupply(ctx.view);
  check(supply >= args.value, 'burn would underflow supply', ERROR_CODE.failure);
  from.balance -= args.value;
  from.mana -= args.value;
  put(ctx, 'S', EMPTY, encodeSupply(supply - args.value));
  put(ctx, 'B', args.from, encodeBalance(from));
  emit(ctx, KOIN_EVENTS.burn, 'koinos.contracts.token.burn_event', { from: args.from, value: args.value }, [args.from]);
}

function unknownEntryPoint(entryPoint: number): ChainError {
  return reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the KOIN contract`);
}

/**
 * Runs a KOIN entry point with its encoded arguments and returns the encoded result (empty bytes for a result
 * whose fields are all default, e.g. a zero balance, as the real contract's canonical encoding gives).
 * @throws ChainError with the contract's message and code: failures (-1, -200) and reversions (1, 108).
 */
export function callKoin(ctx: KoinCallContext, entryPoint: number, args: Uint8Array): Uint8Array {
  const method = koinMethodByEntryPoint(entryPoint);
  if (!method) throw unknownEntryPoint(entryPoint);
  if (!method.readOnly && ctx.readOnly) {
    throw reversion('unable to perform action while context is read only', ERROR_CODE.read_only_context);
  }
  switch (method.name) {
    case 'name':
      useCompute(ctx, COMPUTE.koin_read);
      return encode(method.resultType, { value: KOIN_NAME });
    case 'symbol':
      useCompute(ctx, COMPUTE.koin_read);
      return encode(method.resultType, { value: KOIN_SYMBOL });
    case 'decimals':
      useCompute(ctx, COMPUTE.koin_read);
      return encode(method.resultType, { value: KOIN_DECIMALS });
    case 'get_info':
      useCompute(ctx, COMPUTE.koin_read);
      return encode(method.resultType, { name: KOIN_NAME, symbol: KOIN_SYMBOL, decimals: KOIN_DECIMALS });
    case 'total_supply':
      useCompute(ctx, COMPUTE.koin_read + COMPUTE.get_object);
      return encode(method.resultType, { value: readSupply(ctx.view) });
    case 'balance_of': {
      useCompute(ctx, COMPUTE.koin_read);
      const { owner } = decodeArgs<{ owner: Uint8Array }>(method.argsType, args);
      return encode(method.resultType, { value: getBalance(ctx, owner).balance });
    }
    case 'transfer':
      transfer(ctx, decodeArgs<TransferArgs>(method.argsType, args));
      return EMPTY;
    case 'mint':
      mint(ctx, decodeArgs<{ to: Uint8Array; value: bigint }>(method.argsType, args));
      return EMPTY;
    case 'burn':
      burn(ctx, decodeArgs<{ from: Uint8Array; value: bigint }>(method.argsType, args));
      return EMPTY;
    default:
      throw unknownEntryPoint(entryPoint);
  }
}
