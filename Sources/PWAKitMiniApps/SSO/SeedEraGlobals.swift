/// The globals the seed's mini-apps look for, for pages written before the bridge (opt-in per
/// app): `window.NATIVE_APP`, `window.NATIVE_PLATFORM` and `window.nativeFaceID(reason)`, which
/// asks the `biometrics` module and resolves `true` when the person authenticated, `false`
/// otherwise (cancelled, failed, locked out, not available or not granted); and
/// `window.nativeApplePay({amount, currency, description})` (or the older
/// `nativeApplePay(amount, description)`), which asks the `payments` module for one line of
/// `amount` (a number, written with the currency's decimals) and resolves
/// `{success, status, token}`: `success` true only when authorised, `status` `authorized`,
/// `cancelled` or `failed` (with `error`, the code); it never rejects.
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
              var noDecimals = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
              var threeDecimals = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
              Object.defineProperty(window, 'nativeApplePay', {
                enumerable: true,
                value: function (options, description) {
                  var request = options !== null && typeof options === 'object' ? options : { amount: options, description: description };
                  var currency = typeof request.currency === 'string' ? request.currency.toUpperCase() : 'USD';
                  var digits = noDecimals.indexOf(currency) >= 0 ? 0 : threeDecimals.indexOf(currency) >= 0 ? 3 : 2;
                  var amount = typeof request.amount === 'number' && isFinite(request.amount) ? request.amount.toFixed(digits) : String(request.amount);
                  var label = typeof request.description === 'string' && request.description.length > 0 ? request.description.slice(0, 100) : 'Payment';
                  return window.PWAKit.call('payments', 'request', { items: [{ label: label, amount: amount }], currency: currency })
                    .then(function (answer) {
                      return { success: answer.status === 'authorized', status: answer.status, token: answer.token || null };
                    }, function (error) {
                      return { success: false, status: 'failed', token: null, error: (error && error.code) || 'failed' };
                    });
                }
              });
            })();
            """
    }
}
