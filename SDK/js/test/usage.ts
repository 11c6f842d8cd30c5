// Type-level usage of the global SDK (a classic page script). Checked with
// `tsc --noEmit -p SDK/js/tsconfig.json`; never executed.

// A module declared the way generated declarations will declare them.
interface PWAKitModules {
  demo: {
    greet: { payload: { name: string; excited?: boolean }; result: { greeting: string } };
    ping: { payload: undefined; result: 'pong' };
    tune: { payload: { volume?: number }; result: number };
    note: { payload: string | undefined; result: void };
  };
  haptics: {
    impact: { payload: { style: 'light' | 'medium' | 'heavy' | 'soft' | 'rigid' }; result: void };
  };
}

interface PWAKitEvents {
  push: { type: 'received' | 'tapped'; title?: string; body?: string };
  visibility: { visible: boolean };
}

async function exerciseCalls(signal: AbortSignal): Promise<string> {
  const hello = await PWAKit.call('demo', 'greet', { name: 'Ada' });
  const upper: string = hello.greeting.toUpperCase();

  const pong: 'pong' = await PWAKit.call('demo', 'ping');
  await PWAKit.call('demo', 'ping', undefined, { timeout: 1000, signal });
  const volume: number = await PWAKit.call('demo', 'tune');
  await PWAKit.call('demo', 'tune', { volume: 3 }, { timeout: 500 });
  await PWAKit.call('demo', 'note');
  await PWAKit.call('demo', 'note', 'text');
  await PWAKit.call('haptics', 'impact', { style: 'rigid' });

  // @ts-expect-error the payload is required for greet
  await PWAKit.call('demo', 'greet');
  // @ts-expect-error name must be a string
  await PWAKit.call('demo', 'greet', { name: 42 });
  // @ts-expect-error unknown property in the payload
  await PWAKit.call('demo', 'greet', { name: 'Ada', shout: true });
  // @ts-expect-error style outside the declared set
  await PWAKit.call('haptics', 'impact', { style: 'loud' });
  // @ts-expect-error an action the module does not declare
  await PWAKit.call('demo', 'explode');
  // @ts-expect-error a module nobody declared
  await PWAKit.call('nosuch', 'thing');
  // @ts-expect-error ping takes no payload
  await PWAKit.call('demo', 'ping', { extra: 1 });
  // @ts-expect-error timeout is a number of milliseconds
  await PWAKit.call('demo', 'ping', undefined, { timeout: '1s' });
  // @ts-expect-error the result of greet is an object, not a string
  const wrong: string = await PWAKit.call('demo', 'greet', { name: 'Ada' });

  return upper + pong + String(volume) + wrong;
}

async function exerciseErrors(): Promise<string | undefined> {
  try {
    await PWAKit.call('demo', 'greet', { name: 'Ada' });
    return undefined;
  } catch (error) {
    if (error instanceof PWAKit.PWAKitError) {
      const code: PWAKitErrorCode = error.code;
      if (code === 'timeout' || code === 'too_many_calls' || code === 'cancelled' || code === 'demo.rate_limited') {
        return error.module;
      }
      const path = error.details?.['path'];
      return typeof path === 'string' ? path : error.message;
    }
    throw error;
  }
}

function exerciseEvents(): () => void {
  const stop = PWAKit.on('push', (data) => {
    const kind: 'received' | 'tapped' = data.type;
    void kind;
  });
  PWAKit.once('visibility', ({ visible }) => {
    const shown: boolean = visible;
    void shown;
  });
  PWAKit.on('bridge.error', (data) => {
    const message: string = data.error;
    void message;
  });
  const listener = (data: PWAKitEvents['push']): void => void data.title;
  PWAKit.on('push', listener);
  const removed: boolean = PWAKit.off('push', listener);
  void removed;

  window.addEventListener('pwa:push', (event) => {
    const title: string | undefined = event.detail.title;
    void title;
  });

  // @ts-expect-error an event type nobody declared
  PWAKit.on('nosuch', () => undefined);
  // @ts-expect-error visibility data has no title
  PWAKit.on('visibility', (data) => data.title);
  return stop;
}

function exerciseSurface(): void {
  const config: PWAKitConfiguration = PWAKit.configure({ defaultTimeout: 10_000 });
  PWAKit.configure({
    onDiagnostic: (diagnostic) => {
      const kind: PWAKitDiagnosticKind = diagnostic.kind;
      void kind;
    }
  });
  // @ts-expect-error maxMessageBytes is a number
  PWAKit.configure({ maxMessageBytes: '1MB' });

  const version: number | undefined = PWAKit.protocol?.version;
  const native: boolean = PWAKit.isNative;
  const handled: boolean = window.pwakit._handleResponse({ id: 'x', success: true });
  const acknowledged: Promise<{ acknowledged: boolean }> = PWAKit.ready({ timeout: 1000 });
  void acknowledged;
  const error = new PWAKit.PWAKitError('nope', { code: 'invalid_payload', details: { path: 'payload.name' } });
  const json = error.toJSON();
  void [config, version, native, handled, json.code];
  // @ts-expect-error protocol is read-only
  PWAKit.protocol = null;
}

async function exerciseModules(signal: AbortSignal): Promise<string> {
  const hello = await PWAKit.modules.demo.greet({ name: 'Ada' });
  const upper: string = hello.greeting.toUpperCase();
  const pong: 'pong' = await PWAKit.modules.demo.ping();
  await PWAKit.modules.demo.ping(undefined, { timeout: 1000, signal });
  const volume: number = await PWAKit.modules.demo.tune();
  await PWAKit.modules.haptics.impact({ style: 'soft' }, { timeout: 500 });
  const { impact } = PWAKit.modules.haptics;
  await impact({ style: 'light' });
  const clip = PWAKit.modules.clipboard;
  await clip.write({ text: 'copied' });

  // @ts-expect-error the payload is required for greet
  await PWAKit.modules.demo.greet();
  // @ts-expect-error name must be a string
  await PWAKit.modules.demo.greet({ name: 42 });
  // @ts-expect-error style outside the declared set
  await PWAKit.modules.haptics.impact({ style: 'loud' });
  // @ts-expect-error an action the module does not declare
  await PWAKit.modules.demo.explode();
  // @ts-expect-error a module nobody declared
  await PWAKit.modules.nosuch.thing();
  // @ts-expect-error ping takes no payload
  await PWAKit.modules.demo.ping({ extra: 1 });
  // @ts-expect-error the proxies are read-only
  PWAKit.modules.demo = PWAKit.modules.demo;
  // @ts-expect-error the result of greet is an object, not a string
  const wrong: string = await PWAKit.modules.demo.greet({ name: 'Ada' });
  return upper + pong + String(volume) + wrong;
}

async function exerciseVibrate(signal: AbortSignal): Promise<boolean> {
  const vibrated: boolean = await PWAKit.vibrate(200);
  await PWAKit.vibrate([200, 100, 200], { timeout: 1000, signal });
  const pattern: readonly number[] = Object.freeze([50, 50]);
  await PWAKit.vibrate(pattern);
  const typed: PWAKitVibratePattern = [];
  await PWAKit.vibrate(typed);
  // @ts-expect-error a pattern is made of numbers
  await PWAKit.vibrate(['200']);
  // @ts-expect-error the pattern is required
  await PWAKit.vibrate();
  // @ts-expect-error the answer is a boolean
  const wrong: string = await PWAKit.vibrate(1);
  return vibrated && wrong === '';
}

async function exerciseShare(photo: File, blob: Blob): Promise<boolean> {
  const { shared } = await PWAKit.share({ title: 'Hello', text: 'Look', url: 'https://example.com/' });
  await PWAKit.share({ files: [photo, blob] }, { timeout: 60_000 });
  const data: PWAKitShareData = { text: 'x' };
  const outcome: PWAKitShareResult = await PWAKit.share(data);
  const possible: boolean = await PWAKit.canShare({ files: [photo] });
  await PWAKit.canShare();
  // @ts-expect-error files are Blobs or Files, not names
  await PWAKit.share({ files: ['photo.jpg'] });
  // @ts-expect-error url is a string
  await PWAKit.share({ url: 42 });
  // @ts-expect-error share needs data
  await PWAKit.share();
  // @ts-expect-error canShare answers a boolean
  const wrong: { shared: boolean } = await PWAKit.canShare(data);
  return shared && outcome.shared && possible && wrong.shared;
}

async function exerciseClipboard(signal: AbortSignal): Promise<string> {
  await PWAKit.clipboard.writeText('copied');
  const done: void = await PWAKit.clipboard.writeText('again', { timeout: 1000 });
  const text: string = await PWAKit.clipboard.readText({ signal });
  const clipboard: PWAKitClipboard = PWAKit.clipboard;
  // @ts-expect-error only text is written
  await PWAKit.clipboard.writeText(42);
  // @ts-expect-error readText takes no text
  await PWAKit.clipboard.readText('x');
  // @ts-expect-error the clipboard object is read-only
  PWAKit.clipboard = clipboard;
  void done;
  return text;
}

async function exerciseBadge(): Promise<void> {
  await PWAKit.setAppBadge(3);
  await PWAKit.setAppBadge();
  await PWAKit.setAppBadge(undefined, { timeout: 1000 });
  const cleared: void = await PWAKit.clearAppBadge();
  await PWAKit.clearAppBadge({ timeout: 500 });
  // @ts-expect-error the count is a number
  await PWAKit.setAppBadge('3');
  // @ts-expect-error clearAppBadge takes no count
  await PWAKit.clearAppBadge(0);
  return cleared;
}

async function exercisePermissions(signal: AbortSignal): Promise<boolean> {
  const camera = await PWAKit.permissions.query({ name: 'camera' });
  const state: 'granted' | 'denied' | 'prompt' = camera.state;
  const place: PWAKitWebPermissionStatus = await PWAKit.permissions.request({ name: 'location' }, { signal });
  const webName: 'camera' | 'microphone' | 'geolocation' = place.name;
  const restricted: boolean = place.restricted;
  const descriptor: PWAKitPermissionDescriptor = { name: 'microphone' };
  await PWAKit.permissions.request(descriptor, { timeout: 60_000 });
  // @ts-expect-error only camera, microphone and location permissions
  await PWAKit.permissions.query({ name: 'notifications' });
  // @ts-expect-error the descriptor is an object
  await PWAKit.permissions.query('camera');
  // @ts-expect-error a status never says location: it uses the Web name
  const wrong: 'location' = place.name;
  // @ts-expect-error native states are mapped to Web ones
  const native: 'notDetermined' = camera.state;
  void [webName, wrong, native];
  return state === 'granted' || restricted;
}

void [
  exerciseCalls, exerciseErrors, exerciseEvents, exerciseSurface, exerciseModules, exerciseVibrate, exerciseShare,
  exerciseClipboard, exerciseBadge, exercisePermissions
];
