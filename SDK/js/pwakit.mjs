// ES-module entry for the PWAKit SDK. The SDK itself is the classic script
// beside this file (what a PWAKit host injects at document start); importing it
// here runs it once for its side effect, and a copy already on the page is
// reused rather than duplicated.
import './pwakit.js';

/** The PWAKit SDK instance (the same object as `globalThis.PWAKit`). */
export const PWAKit = globalThis.PWAKit;

/** The error class every rejected `PWAKit.call` uses. */
export const PWAKitError = PWAKit.PWAKitError;

export default PWAKit;
