// Numbers the tests share: the KOIN unit (and that of any 8-decimal token), from the wallet's own decimals.
import { KOIN_DECIMALS } from '../../src-main/koinos/amounts.ts';

/** One KOIN in satoshis (10^8), as a bigint: `5n * KOIN` is five KOIN. Also one unit of an 8-decimal test token. */
export const KOIN: bigint = 10n ** BigInt(KOIN_DECIMALS);
