// Numbers the tests share: the KOIN unit (and that of any 8-decimal token), from the wallet's own decimals, and the
// cheap scrypt cost of test wallets.
import { KOIN_DECIMALS } from '../../src-main/koinos/amounts.ts';
import type { ScryptCost } from '../../src-main/wallet/vault/vaultCrypto.ts';

/** One KOIN in satoshis (10^8), as a bigint: `5n * KOIN` is five KOIN. Also one unit of an 8-decimal test token. */
export const KOIN: bigint = 10n ** BigInt(KOIN_DECIMALS);

/**
 * scrypt at 2^10 for test wallets: the same code path as the real cost (calibrated to ~250 ms a derivation, at least
 * 2^15), a thousandth of its time; the calibration itself is tested in the vault's own tests.
 */
export const TEST_SCRYPT: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };
