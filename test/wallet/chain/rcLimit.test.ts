// rc_limit from a dry run: the mana a transaction needs (rcNeeded: more than its rc_used when it frees bytes, which the
// chain credits only after the charges it had to pass) plus 10 %, never above what the account has.
import { describe, expect, it } from 'vitest';
import { rcLimitFor, rcNeeded } from '../../../src-main/wallet/chain/submission.ts';

describe('rc_limit from a dry run', () => {
  it('needs the mana a transaction used before the bytes it freed were credited', () => {
    const receipt = {
      rc_used: 1_000n,
      disk_storage_used: 0n,
      network_bandwidth_used: 300n,
      compute_bandwidth_used: 900n,
    };
    expect(rcNeeded(receipt, { disk: 10n, network: 2n, compute: 1n })).toBe(1_500n); // 900 + 2 × 300, credited to 1,000
    expect(rcNeeded({ ...receipt, rc_used: 2_000n }, { disk: 10n, network: 2n, compute: 1n })).toBe(2_000n);
    expect(rcNeeded(receipt, undefined)).toBe(1_000n); // no prices from the node
  });

  it('adds 10 % (rounded up) and stays under the mana available', () => {
    expect(rcLimitFor(1_000n, 10_000n)).toBe(1_100n);
    expect(rcLimitFor(1_001n, 10_000n)).toBe(1_102n);
    expect(rcLimitFor(1_000n, 1_050n)).toBe(1_050n);
  });
});
