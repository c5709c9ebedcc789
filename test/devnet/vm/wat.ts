// Test helpers for the VM: WebAssembly text compiled by wabt, and a compute meter with the chain's exhaustion rule.
import wabtFactory from 'wabt';
import { ChainError, ERROR_CODE } from '../../../src-main/devnet/state/chainError.ts';
import type { TickMeter } from '../../../src-main/devnet/vm/runModule.ts';

type Wabt = Awaited<ReturnType<typeof wabtFactory>>;
type Features = Parameters<Wabt['parseWat']>[2];

let wabt: Wabt | undefined;

/** The binary of a WAT module; `features` lets a test write post-1.0 instructions the VM must refuse. */
export async function wat(text: string, features: Features = {}): Promise<Uint8Array> {
  wabt ??= await wabtFactory();
  const module = wabt.parseWat('test.wat', text, features);
  try {
    module.resolveNames();
    module.validate();
    return module.toBinary({}).buffer.slice();
  } finally {
    module.destroy();
  }
}

/** A meter with a compute limit; going past it charges what remains and throws "insufficient rc" (104). */
export class TestMeter implements TickMeter {
  used = 0n;
  readonly limit: bigint;
  /** `used` at each host call, as the host saw it. */
  readonly seen: bigint[] = [];

  constructor(limit: bigint) {
    this.limit = limit;
  }

  remainingTicks(): bigint {
    return this.limit - this.used;
  }

  useTicks(ticks: bigint): void {
    if (ticks > this.remainingTicks()) {
      this.used = this.limit;
      throw new ChainError(ERROR_CODE.insufficient_rc, 'insufficient rc');
    }
    this.used += ticks;
  }
}
