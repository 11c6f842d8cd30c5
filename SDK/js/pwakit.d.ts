// Type declarations for the PWAKit JavaScript SDK (the classic script pwakit.js,
// which defines the global `PWAKit`). For `import` use pwakit.d.mts beside it.
//
// Modules and events are typed through two open interfaces that other
// declarations fill by merging:
//
//   interface PWAKitModules {
//     haptics: {
//       impact: { payload: { style: 'light' | 'medium' | 'heavy' }; result: void };
//     };
//   }
//   interface PWAKitEvents {
//     push: { type: 'received' | 'tapped'; title?: string };
//   }
//
// (inside an ES module, wrap them in `declare global { ... }`).

/**
 * Native modules the bridge can call: module name → action name →
 * `{ payload, result }`. Empty here; generated declarations fill it.
 * While it is empty, `PWAKit.call` accepts any module and action (loosely
 * typed); once it has entries, only the declared ones type-check.
 */
interface PWAKitModules {}

/** Events the native side sends: type → the event's `data`. */
interface PWAKitEvents {
  /** A message the host could not attribute to a call (it had no readable id). */
  'bridge.error': PWAKitBridgeErrorEvent;
}

/** The data of a `bridge.error` event. */
interface PWAKitBridgeErrorEvent {
  /** A stable error code, e.g. `invalid_message` or `payload_too_large`. */
  code: PWAKitErrorCode;
  /** A human-readable message. */
  error: string;
  /** Additional facts, e.g. `{ path: "payload.style" }`. */
  details?: Record<string, unknown>;
}

/** Error codes of the bridge itself. */
type PWAKitBridgeErrorCode =
  | 'invalid_message'
  | 'unknown_module'
  | 'unavailable'
  | 'unknown_action'
  | 'invalid_payload'
  | 'permission_denied'
  | 'origin_not_allowed'
  | 'payload_too_large'
  | 'timeout'
  | 'cancelled'
  | 'module_error'
  | 'too_many_calls';

/** Any error code: a bridge code or a module's own `<module>.<reason>`. */
type PWAKitErrorCode = PWAKitBridgeErrorCode | `${string}.${string}`;

/** Options of one call. */
interface PWAKitCallOptions {
  /** Milliseconds before the call fails with `timeout` (1…86400000, one day; default 30000). */
  timeout?: number;
  /** Aborting it fails the call with `cancelled` and cancels it natively. */
  signal?: AbortSignal;
}

/** The handshake object the host sets as `window.pwakit.protocol`. */
interface PWAKitProtocol {
  /** The bridge protocol version the host speaks. */
  readonly version: number;
  /** Optional protocol features the host supports. */
  readonly capabilities: readonly string[];
  /** A hash of the host's module schema. */
  readonly schemaHash: string;
}

/** SDK-wide settings. */
interface PWAKitConfiguration {
  /** Default call timeout in milliseconds (initially 30000). */
  defaultTimeout: number;
  /** Largest encoded message (UTF-8 bytes of its JSON) the SDK will post (initially 1 MiB). */
  maxMessageBytes: number;
  /** Receives reports about ignored or malformed traffic; `null` for none. */
  onDiagnostic: ((diagnostic: PWAKitDiagnostic) => void) | null;
}

/** What kind of ignored or malformed traffic a diagnostic reports. */
type PWAKitDiagnosticKind =
  | 'unknown_id'
  | 'late_response'
  | 'malformed_response'
  | 'malformed_reply'
  | 'mismatched_reply'
  | 'malformed_event'
  | 'cancel_failed'
  | 'delegate_error'
  | 'install_failed'
  | 'internal_error';

/** A report about traffic the SDK ignored. */
interface PWAKitDiagnostic {
  /** What happened. */
  readonly kind: PWAKitDiagnosticKind;
  /** A human-readable explanation. */
  readonly message: string;
  /** The call id concerned, when there is one. */
  readonly id?: string;
  /** The offending value (response, reply or error). */
  readonly value?: unknown;
}

/** The fields of a `PWAKitError`, for its constructor. */
interface PWAKitErrorOptions {
  code?: PWAKitErrorCode;
  details?: Record<string, unknown>;
  module?: string;
  action?: string;
  id?: string;
  cause?: unknown;
}

/** The error every failed `PWAKit.call` rejects with. */
interface PWAKitError extends Error {
  readonly name: 'PWAKitError';
  /** A stable code: a bridge code or `<module>.<reason>`. */
  readonly code: PWAKitErrorCode;
  /** Additional facts, e.g. `{ path: "payload.trigger.seconds" }`. */
  readonly details: Record<string, unknown> | undefined;
  /** The module called. */
  readonly module: string | undefined;
  /** The action called. */
  readonly action: string | undefined;
  /** The id of the call. */
  readonly id: string | undefined;
  /** What caused it (an abort reason, a thrown error), when known. */
  readonly cause?: unknown;
  /** A plain object for logging. */
  toJSON(): {
    name: 'PWAKitError';
    code: PWAKitErrorCode;
    message: string;
    details?: Record<string, unknown>;
    module?: string;
    action?: string;
    id?: string;
  };
}

/** The `PWAKitError` class. */
interface PWAKitErrorConstructor {
  new (message: string, options?: PWAKitErrorOptions): PWAKitError;
  readonly prototype: PWAKitError;
}

/** Module names declared in `PWAKitModules`. */
type PWAKitModuleName = keyof PWAKitModules & string;

/** Action names declared for module `M`. */
type PWAKitActionName<M extends PWAKitModuleName> = keyof PWAKitModules[M] & string;

/** The payload type of `M.A` (`undefined` when the action takes none). */
type PWAKitPayload<M extends PWAKitModuleName, A extends PWAKitActionName<M>> =
  PWAKitModules[M][A] extends { payload: infer P } ? P : undefined;

/** The result type of `M.A` (`unknown` when undeclared). */
type PWAKitResult<M extends PWAKitModuleName, A extends PWAKitActionName<M>> =
  PWAKitModules[M][A] extends { result: infer R } ? R : unknown;

/** The arguments after module and action: the payload is optional only when it may be omitted. */
type PWAKitCallArguments<P> =
  [P] extends [undefined | void]
    ? [payload?: undefined, options?: PWAKitCallOptions]
    : undefined extends P
      ? [payload?: P, options?: PWAKitCallOptions]
      : {} extends P
        ? [payload?: P, options?: PWAKitCallOptions]
        : [payload: P, options?: PWAKitCallOptions];

/** `call` checked against `PWAKitModules`. */
interface PWAKitTypedCall {
  <M extends PWAKitModuleName, A extends PWAKitActionName<M>>(
    module: M,
    action: A,
    ...args: PWAKitCallArguments<PWAKitPayload<M, A>>
  ): Promise<PWAKitResult<M, A>>;
}

/**
 * `call` while no module is declared: any module and action; results are
 * `unknown` (declare the module in `PWAKitModules` to type them).
 */
interface PWAKitLooseCall {
  (module: string, action: string, payload?: unknown, options?: PWAKitCallOptions): Promise<unknown>;
}

/** One action of `PWAKit.modules`: `PWAKit.call(M, A, payload, options)` with `M` and `A` filled in. */
type PWAKitActionFunction<M extends PWAKitModuleName, A extends PWAKitActionName<M>> =
  (...args: PWAKitCallArguments<PWAKitPayload<M, A>>) => Promise<PWAKitResult<M, A>>;

/** The actions of module `M` on `PWAKit.modules`. */
type PWAKitModuleActions<M extends PWAKitModuleName> = {
  readonly [A in PWAKitActionName<M>]: PWAKitActionFunction<M, A>;
};

/** `PWAKit.modules` checked against `PWAKitModules`: each declared module and its actions. */
type PWAKitTypedModules = {
  readonly [M in PWAKitModuleName]: PWAKitModuleActions<M>;
};

/** `PWAKit.modules` while no module is declared: any module and action, `unknown` results. */
interface PWAKitLooseModules {
  readonly [module: string]: {
    readonly [action: string]: (payload?: unknown, options?: PWAKitCallOptions) => Promise<unknown>;
  };
}

/** Event types declared in `PWAKitEvents`. */
type PWAKitEventType = keyof PWAKitEvents & string;

/** The PWAKit SDK (`globalThis.PWAKit`). */
interface PWAKitStatic {
  /** The SDK version. */
  readonly version: string;
  /** The error class of failed calls. */
  readonly PWAKitError: PWAKitErrorConstructor;
  /** Whether a PWAKit host's message handler is present. */
  readonly isNative: boolean;
  /** The host's handshake, or `null` outside a PWAKit host. */
  readonly protocol: PWAKitProtocol | null;
  /** Calls not yet settled. */
  readonly inFlight: number;

  /**
   * Calls `action` of native `module`. Resolves with the result; rejects with a
   * `PWAKitError` (`unavailable` outside a host, `invalid_payload` for a payload
   * JSON cannot carry, `payload_too_large`, `timeout`, `cancelled`, or the code
   * the native side answered with).
   */
  readonly call: [PWAKitModuleName] extends [never] ? PWAKitLooseCall : PWAKitTypedCall;

  /**
   * The native modules as objects: `PWAKit.modules.haptics.impact(payload, options)`
   * is `PWAKit.call('haptics', 'impact', payload, options)`. It lists nothing (the
   * host's modules are not known in advance); names the language itself probes
   * (`then`, `toJSON`, `constructor`, `toString`, …) are not modules or actions here.
   */
  readonly modules: [PWAKitModuleName] extends [never] ? PWAKitLooseModules : PWAKitTypedModules;

  /** Listens for native events of `type`; returns a function that stops listening. */
  on<T extends PWAKitEventType>(type: T, listener: (data: PWAKitEvents[T]) => void): () => void;
  /** Like `on`, for the next event of `type` only. */
  once<T extends PWAKitEventType>(type: T, listener: (data: PWAKitEvents[T]) => void): () => void;
  /** Removes a listener added with `on` or `once`; `true` when one was removed. */
  off<T extends PWAKitEventType>(type: T, listener: (data: PWAKitEvents[T]) => void): boolean;

  /** Changes settings (validated; an invalid option changes nothing) and returns them. */
  configure(options?: Partial<PWAKitConfiguration>): PWAKitConfiguration;

  /**
   * Tells the host the page is ready (it has drawn what it needs to): `lifecycle.ready`.
   * A screenshot run can wait for it; an updated bundle must send it from its own load.
   */
  ready(options?: PWAKitCallOptions): Promise<{ acknowledged: boolean }>;

  /**
   * Vibrates the device (`vibration.vibrate` in a host, `navigator.vibrate` outside).
   * Resolves whether it vibrated. Rejects with `invalid_payload` (`details.path`
   * `payload.pattern`, `details.index` for an entry) for anything but a non-negative
   * finite number or an array of them, and with `unavailable` where neither exists.
   */
  vibrate(pattern: PWAKitVibratePattern, options?: PWAKitCallOptions): Promise<boolean>;

  /**
   * Opens the share sheet (`share.share` in a host, `navigator.share` outside). Resolves
   * `{ shared: false }` when the user dismissed it. Rejects with `invalid_payload` for
   * data without any field or with a field of the wrong type, `payload_too_large` when
   * the files do not fit in one message, `unavailable` where neither exists. In a host
   * the default timeout is at least 10 minutes: the call waits for the user.
   */
  share(data: PWAKitShareData, options?: PWAKitCallOptions): Promise<PWAKitShareResult>;

  /**
   * Whether `share(data)` could share `data` (`share.canShare` in a host,
   * `navigator.canShare` outside). Resolves `false`, rather than rejecting, for invalid
   * data and where sharing is not possible at all.
   */
  canShare(data?: PWAKitShareData, options?: PWAKitCallOptions): Promise<boolean>;

  /** Text on the system clipboard, shaped like `navigator.clipboard`. */
  readonly clipboard: PWAKitClipboard;

  /**
   * Shows `count` on the app's icon; `0` clears it (`badging.set` in a host,
   * `navigator.setAppBadge` outside). Without a count the Badging API shows a plain
   * mark; a host, which shows numbers only, shows 1. Fractions are cut to whole numbers;
   * a count that is not a number from 0 to `Number.MAX_SAFE_INTEGER` is
   * `invalid_payload` (`details.path` `payload.count`).
   */
  setAppBadge(count?: number, options?: PWAKitCallOptions): Promise<void>;

  /** Removes the app icon's badge (`badging.clear` in a host, `navigator.clearAppBadge` outside). */
  clearAppBadge(options?: PWAKitCallOptions): Promise<void>;

  /** Camera, microphone and location permissions, shaped like `navigator.permissions`. */
  readonly permissions: PWAKitPermissions;
}

/**
 * A vibration pattern in milliseconds: one duration, or vibrations and pauses in turn.
 * `0` or `[]` stops. Durations are made whole and shortened to 10 000 ms; entries after
 * the 100th are dropped (as browsers do).
 */
type PWAKitVibratePattern = number | readonly number[];

/** What to share: at least one field; `files` must not be empty when it is the only one. */
interface PWAKitShareData {
  /** A title for what is shared. */
  title?: string;
  /** The text to share. */
  text?: string;
  /** An address, resolved against the page's (an `about:`, `blob:`, `data:` or `file:` URL is refused). */
  url?: string;
  /**
   * Files to share. In a host each is read and sent base64-encoded; together they must
   * fit in one message (`maxMessageBytes`). A Blob without a name is called `file-<n>`.
   */
  files?: readonly Blob[];
}

/** The outcome of `PWAKit.share`. */
interface PWAKitShareResult {
  /** `true` when shared; `false` when the user dismissed the share sheet (not an error). */
  shared: boolean;
}

/** `PWAKit.clipboard`: text on the system clipboard. */
interface PWAKitClipboard {
  /**
   * Puts `text` on the clipboard (`clipboard.write` in a host,
   * `navigator.clipboard.writeText` outside). Rejects with `invalid_payload`
   * (`details.path` `payload.text`) for anything but a string.
   */
  writeText(text: string, options?: PWAKitCallOptions): Promise<void>;
  /**
   * The clipboard's text, `''` when it holds none (`clipboard.read` in a host,
   * `navigator.clipboard.readText` outside). In a host the default timeout is at least
   * 10 minutes: the system may ask the user first.
   */
  readText(options?: PWAKitCallOptions): Promise<string>;
}

/** Permissions `PWAKit.permissions` knows; `location` is another name for `geolocation`. */
type PWAKitPermissionName = 'camera' | 'microphone' | 'geolocation' | 'location';

/** Which permission to query or request. */
interface PWAKitPermissionDescriptor {
  name: PWAKitPermissionName;
}

/**
 * A permission's state, in the Permissions API's terms (the native modules answer
 * `{ state }` with `notDetermined` and `restricted`; `PWAKit.permissions` maps them).
 */
interface PWAKitWebPermissionStatus {
  /** The Web name of the permission (`geolocation` for `location`). */
  readonly name: 'camera' | 'microphone' | 'geolocation';
  /** `prompt`: the user has not decided yet (native `notDetermined`). */
  readonly state: 'granted' | 'denied' | 'prompt';
  /**
   * `true` when a policy (parental controls, device management) denies it and the user
   * cannot change that (native `restricted`); `state` is then `denied`.
   */
  readonly restricted: boolean;
}

/** `PWAKit.permissions`: camera, microphone and location permissions. */
interface PWAKitPermissions {
  /**
   * The permission's state, without asking (`<camera|microphone|location>.check` in a
   * host, `navigator.permissions.query` outside). Rejects with `invalid_payload`
   * (`details.path` `descriptor` or `descriptor.name`) for another name, and with
   * `unavailable` where the browser cannot tell.
   */
  query(descriptor: PWAKitPermissionDescriptor, options?: PWAKitCallOptions): Promise<PWAKitWebPermissionStatus>;
  /**
   * Asks the user when they have not decided yet and resolves the resulting state
   * (`<camera|microphone|location>.request` in a host; outside one the capability is
   * used once: a media stream stopped at once, one position). In a host the default
   * timeout is at least 10 minutes: the call waits for the user.
   */
  request(descriptor: PWAKitPermissionDescriptor, options?: PWAKitCallOptions): Promise<PWAKitWebPermissionStatus>;
}

/** The object the native side answers through (`window.pwakit`). */
interface PWAKitNativeEntry {
  /** The handshake, set by the host before page scripts run. */
  protocol?: PWAKitProtocol;
  /** Delivers a response; `true` when it was used (it settled a call, or went to the page's own handler). */
  _handleResponse(response: unknown): boolean;
  /** Delivers an event; `true` when it was dispatched. */
  _handleEvent(event: unknown): boolean;
}

/** The DOM events the SDK dispatches on `window`: `pwa:<type>` with the data as `detail`. */
type PWAKitDOMEventMap = {
  [T in PWAKitEventType as `pwa:${T}`]: CustomEvent<PWAKitEvents[T]>;
};

interface WindowEventMap extends PWAKitDOMEventMap {}

/** The PWAKit SDK. */
declare var PWAKit: PWAKitStatic;
/** The object the native side answers through. */
declare var pwakit: PWAKitNativeEntry;
