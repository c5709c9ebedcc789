// KOIN as a built-in system contract of the devnet: the current contract (koinos-contracts-as contracts/koin) run
// natively — KCS-4 with allowances, `authorize`, and the mana rules of facts §3.10: max mana = balance, lazy
// regeneration over 5 days.
import { decode, encode } from '../../koinos/codec.ts';
import type { TokenMethod } from '../../koinos/koin.ts';
import { check, useCompute, type CallContext } from './context.ts';
import { TokenContract, type TokenInfo } from './token.ts';
import { ERROR_CODE } from '../state/chainError.ts';
import { COMPUTE } from '../state/resources.ts';
import type { StateView } from '../state/state.ts';

/** Mana regenerates fully in 5 days (ms). */
export const MANA_REGEN_TIME_MS = 432_000_000n;

/** KOIN's name, symbol and decimals (the real contract's, not the test build's "Test Koin"/"tKOIN"). */
const KOIN_INFO: TokenInfo = { name: 'Koin', symbol: 'KOIN', decimals: 8 };

const MANA_BALANCE = 'koinos.contracts.koin.mana_balance_object';

/** An account's KOIN record (`mana_balance_object`). */
export interface ManaBalance {
  balance: bigint;
  mana: bigint;
  last_mana_update: bigint;
}

/** Canonical bytes of a KOIN record. */
export function encodeBalance(value: ManaBalance): Uint8Array {
  return encode(MANA_BALANCE, value);
}

/**
 * Regenerates mana up to `headBlockTime` (ms), in place: `mana += floor(delta × balance / 5 days)` capped at the
 * balance, with delta = time since the last update capped at 5 days (Koin.ts `_regenerate_mana`).
 */
function regenerateMana(record: ManaBalance, headBlockTime: bigint): void {
  let delta = headBlockTime - record.last_mana_update;
  if (delta > MANA_REGEN_TIME_MS) delta = MANA_REGEN_TIME_MS;
  if (delta <= 0n) return;
  const mana = record.mana + (delta * record.balance) / MANA_REGEN_TIME_MS;
  record.mana = mana < record.balance ? mana : record.balance;
  record.last_mana_update = headBlockTime;
}

/** The KOIN contract. One instance per devnet address. */
export class KoinContract extends TokenContract<ManaBalance> {
  protected override readonly extraMethods = ['authorize'];

  info(): TokenInfo {
    return KOIN_INFO;
  }

  decodeRecord(bytes: Uint8Array | undefined): ManaBalance {
    return bytes ? decode(MANA_BALANCE, bytes) : { balance: 0n, mana: 0n, last_mana_update: 0n };
  }

  encodeRecord(record: ManaBalance): Uint8Array {
    return encodeBalance(record);
  }

  balanceOf(record: ManaBalance): bigint {
    return record.balance;
  }

  protected debit(ctx: CallContext, record: ManaBalance, value: bigint, action: 'transfer' | 'burn'): void {
    regenerateMana(record, ctx.headBlockTime);
    check(record.mana >= value, `account 'from' has insufficient mana for ${action}`, ERROR_CODE.failure);
    record.balance -= value;
    record.mana -= value;
  }

  protected credit(ctx: CallContext, record: ManaBalance, value: bigint): void {
    regenerateMana(record, ctx.headBlockTime);
    record.balance += value;
    record.mana += value;
  }

  /** Full mana at the new balance. */
  protected withBalance(_record: ManaBalance, value: bigint, time: bigint): ManaBalance {
    return { balance: value, mana: value, last_mana_update: time };
  }

  /** The real contract mints only from kernel mode; on the devnet a signature of the genesis key stands for that. */
  protected mayMint(ctx: CallContext): boolean {
    return ctx.authorize(ctx.genesisAddress);
  }

  /** `authorize`: the contract's own authority is the system authority (a signature of the genesis key). */
  protected override extra(ctx: CallContext, method: TokenMethod): Uint8Array | undefined {
    if (method.name !== 'authorize') return undefined;
    useCompute(ctx, COMPUTE.check_authority);
    return encode(method.resultType, { value: ctx.authorize(ctx.genesisAddress) });
  }

  /** Current mana of an account (what `chain.get_account_rc` answers). */
  accountRc(view: StateView, address: Uint8Array, headBlockTime: bigint): bigint {
    const record = this.record(view, address);
    regenerateMana(record, headBlockTime);
    return record.mana;
  }

  /**
   * Takes `value` mana from an account after regenerating it (Koin.ts `consume_account_rc`); false, and nothing
   * written, when the account has less. Returns the disk bytes the write used.
   */
  consumeAccountRc(view: StateView, address: Uint8Array, value: bigint, headBlockTime: bigint): boolean {
    const record = this.record(view, address);
    regenerateMana(record, headBlockTime);
    if (record.mana < value) return false;
    record.mana -= value;
    view.put(this.spaces.balances, address, encodeBalance(record));
    return true;
  }
}
