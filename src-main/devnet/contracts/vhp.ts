// VHP as a built-in system contract of the devnet (koinos-contracts-as contracts/vhp): KCS-4 with allowances, and
// `effective_balance_of`, which counts an increase only after 20 blocks (what proof-of-burn block production uses).
import { decode, encode } from '../../koinos/codec.ts';
import type { SystemTokenMethod } from '../../koinos/koin.ts';
import { decodeArguments, check, useCompute, type CallContext } from './context.ts';
import { TokenContract, type TokenInfo } from './token.ts';
import { COMPUTE } from '../state/resources.ts';

const VHP_INFO: TokenInfo = { name: 'Virtual Hash Power', symbol: 'VHP', decimals: 8 };
/** Blocks an increase waits before it counts in the effective balance (Vhp.ts `_delay_blocks`). */
const VHP_DELAY_BLOCKS = 20n;

const RECORD = 'koinos.contracts.vhp.effective_balance_object';

interface Entry {
  block_height: bigint;
  balance: bigint;
}

export interface EffectiveBalance {
  current_balance: bigint;
  past_balances: Entry[];
}

/** Keeps at most one snapshot older than the delay (Vhp.ts `_trim_balances`). */
function trim(record: EffectiveBalance, height: bigint): void {
  if (record.past_balances.length <= 1) return;
  const limit = height < VHP_DELAY_BLOCKS ? 0n : height - VHP_DELAY_BLOCKS;
  while (record.past_balances.length > 1 && record.past_balances[1]!.block_height <= limit)
    record.past_balances.shift();
}

export class VhpContract extends TokenContract<EffectiveBalance> {
  protected override readonly extraMethods = ['authorize', 'effective_balance_of'];

  info(): TokenInfo {
    return VHP_INFO;
  }

  decodeRecord(bytes: Uint8Array | undefined): EffectiveBalance {
    return bytes ? decode(RECORD, bytes) : { current_balance: 0n, past_balances: [] };
  }

  encodeRecord(record: EffectiveBalance): Uint8Array {
    return encode(RECORD, record);
  }

  balanceOf(record: EffectiveBalance): bigint {
    return record.current_balance;
  }

  protected debit(ctx: CallContext, record: EffectiveBalance, value: bigint): void {
    trim(record, ctx.blockHeight);
    record.current_balance -= value;
    for (const entry of record.past_balances) entry.balance = entry.balance < value ? 0n : entry.balance - value;
  }

  protected credit(ctx: CallContext, record: EffectiveBalance, value: bigint): void {
    const height = ctx.blockHeight;
    trim(record, height);
    // Vhp.ts writes height - 1 (a u64); a submission on a devnet still at its genesis head runs at height 0, where that
    // would wrap, so the snapshot before it is kept at 0.
    if (record.past_balances.length === 0)
      record.past_balances.push({ block_height: height > 0n ? height - 1n : 0n, balance: record.current_balance });
    record.current_balance += value;
    const last = record.past_balances[record.past_balances.length - 1]!;
    if (last.block_height !== height)
      record.past_balances.push({ block_height: height, balance: record.current_balance });
    else last.balance = record.current_balance;
  }

  /** Effective at once: no snapshots. */
  protected withBalance(_record: EffectiveBalance, value: bigint): EffectiveBalance {
    return { current_balance: value, past_balances: [] };
  }

  /**
   * Vhp.ts mints only for a kernel-mode caller: the proof-of-burn contract's burn (pob.ts). On the devnet a signature
   * of the genesis key also stands for kernel mode, so a developer can mint VHP directly.
   */
  protected mayMint(ctx: CallContext): boolean {
    return ctx.kernelCaller === true || ctx.authorize(ctx.genesisAddress);
  }

  protected override extra(ctx: CallContext, method: SystemTokenMethod, args: Uint8Array): Uint8Array | undefined {
    if (method.name === 'authorize') {
      useCompute(ctx, COMPUTE.check_authority);
      return encode(method.resultType, { value: ctx.authorize(ctx.genesisAddress) });
    }
    if (method.name !== 'effective_balance_of') return undefined;
    useCompute(ctx, COMPUTE.koin_read + COMPUTE.get_object);
    const { owner } = decodeArguments(method.argsType, args);
    check(owner.length > 0, "account 'owner' cannot be null");
    const record = this.record(ctx.view, owner);
    if (record.past_balances.length === 0) return encode(method.resultType, { value: record.current_balance });
    trim(record, ctx.blockHeight);
    return encode(method.resultType, { value: record.past_balances[0]!.balance });
  }
}
