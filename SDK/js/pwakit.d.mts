// Type declarations for pwakit.mjs, the ES-module entry of the PWAKit SDK.
// The types themselves are the global ones in pwakit.d.ts; augment
// `PWAKitModules` / `PWAKitEvents` with `declare global { ... }`.
/// <reference path="./pwakit.d.ts" />

/** The PWAKit SDK instance (the same object as `globalThis.PWAKit`). */
export declare const PWAKit: PWAKitStatic;

/** The error class every rejected `PWAKit.call` uses. */
export declare const PWAKitError: PWAKitErrorConstructor;
/** The error every rejected `PWAKit.call` rejects with. */
export type PWAKitError = globalThis.PWAKitError;

export default PWAKit;
