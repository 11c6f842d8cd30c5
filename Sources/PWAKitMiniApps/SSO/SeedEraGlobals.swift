/// The globals the seed's mini-apps look for, for pages written before the bridge (opt-in per
/// app): `window.NATIVE_APP`, `window.NATIVE_PLATFORM` and `window.nativeFaceID(reason)`, which
/// asks the `biometrics` module and resolves `true` when the person authenticated, `false`
/// otherwise (cancelled, failed, locked out, not available or not granted).
///
/// The seed's `?token=JWT` start URL stays unsupported: a token in a URL leaks into logs,
/// history and `Referer`; pages get a single-use launch code from the `session` module instead.
public enum SeedEraGlobals {
    /// The script, run at document start in the mini-app's top frame after the SDK.
    public static func script(platform: String) -> String {
        let platformLiteral = platform.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" } ? platform : "linux"
        return """
            (function () {
              'use strict';
              Object.defineProperty(window, 'NATIVE_APP', { value: true, enumerable: true });
              Object.defineProperty(window, 'NATIVE_PLATFORM', { value: '\(platformLiteral)', enumerable: true });
              Object.defineProperty(window, 'nativeFaceID', {
                enumerable: true,
                value: function (reason) {
                  var text = typeof reason === 'string' && reason.length > 0 ? reason.slice(0, 256) : 'Confirm it is you';
                  return window.PWAKit.call('biometrics', 'authenticate', { reason: text })
                    .then(function (answer) { return !!(answer && answer.authenticated); }, function () { return false; });
                }
              });
            })();
            """
    }
}
