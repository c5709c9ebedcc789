// Numbers the tests share: the KOIN unit (and that of any 8-decimal token), from the wallet's own decimals, the
// cheap scrypt cost of test wallets, and the timeout of tests whose own work is long.
import { KOIN_DECIMALS } from '../../src-main/koinos/amounts.ts';
import type { ScryptCost } from '../../src-main/wallet/vault/vaultCrypto.ts';

/** One KOIN in satoshis (10^8), as a bigint: `5n * KOIN` is five KOIN. Also one unit of an 8-decimal test token. */
export const KOIN: bigint = 10n ** BigInt(KOIN_DECIMALS);

/**
 * scrypt at 2^10 for test wallets: the same code path as the real cost (calibrated to ~250 ms a derivation, at least
 * 2^15), a thousandth of its time; the calibration itself is tested in the vault's own tests.
 */
export const TEST_SCRYPT: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/**
 * The options of a test whose own work is long (a TypeScript parse of the whole tree, devnet processes it starts and
 * kills): 6-10 s in a clean-clone run of the suite on a 2-core machine, 25-29 s in one with two busy loops beside it,
 * against the unit tests' default timeout of 30 s. A deadline for a broken test, not a timing any test relies on.
 */
export const LONG_TEST = { timeout: 120_000 };
