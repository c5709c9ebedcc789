// The `koinos-wallet://wc?uri=…` link a dApp opens to hand a WalletConnect URI to the desktop wallet: the OS starts
// the app with the link in its arguments (Windows, Linux) or sends it as `open-url` (macOS); the running instance
// takes it over (`second-instance`) and pairs.
/** The URL scheme the app registers with the OS. */
export const DEEP_LINK_SCHEME = 'koinos-wallet';

/** The longest link taken from a command line: a pairing URI is about 200 characters, percent-encoded 300. */
const MAX_LINK_LENGTH = 2048;

/**
 * `text` read as a `koinos-wallet://wc?uri=…` link, or undefined when it is none. The scheme and `wc` are taken in
 * any case, and `wc/?uri=…` as `wc?uri=…`: URL rules, and what a browser or a system may hand over.
 * @example
 * walletConnectLink('KOINOS-WALLET://wc/?uri=wc%3A…')?.searchParams.get('uri'); // 'wc:…'
 */
export function walletConnectLink(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const wc = url.protocol === `${DEEP_LINK_SCHEME}:` && url.host.toLowerCase() === 'wc';
  return wc && (url.pathname === '' || url.pathname === '/') ? url : undefined;
}

/**
 * The first `koinos-wallet://wc?…` link among command-line arguments, if any (the rest of the command line is not
 * looked at: a link is all the OS adds).
 * @example
 * deepLinkIn(['/usr/bin/koinos-wallet', 'koinos-wallet://wc?uri=wc%3A…']); // 'koinos-wallet://wc?uri=wc%3A…'
 */
export function deepLinkIn(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.length <= MAX_LINK_LENGTH && walletConnectLink(arg) !== undefined);
}
