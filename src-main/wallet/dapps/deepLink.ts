// The `koinos-wallet://wc?uri=…` link a dApp opens to hand a WalletConnect URI to the desktop wallet: the OS starts
// the app with the link in its arguments (Windows, Linux) or sends it as `open-url` (macOS); the running instance
// takes it over (`second-instance`) and pairs.
/** The URL scheme the app registers with the OS. */
export const DEEP_LINK_SCHEME = 'koinos-wallet';

/** The longest link taken from a command line: a pairing URI is about 200 characters, percent-encoded 300. */
const MAX_LINK_LENGTH = 2048;

/**
 * The first `koinos-wallet://wc?…` link among command-line arguments, if any (the rest of the command line is not
 * looked at: a link is all the OS adds).
 * @example
 * deepLinkIn(['/usr/bin/koinos-wallet', 'koinos-wallet://wc?uri=wc%3A…']); // 'koinos-wallet://wc?uri=wc%3A…'
 */
export function deepLinkIn(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.length <= MAX_LINK_LENGTH && arg.startsWith(`${DEEP_LINK_SCHEME}://wc?`));
}
