// With no module declared in PWAKitModules (the core alone, before generated
// declarations exist), `call` accepts any module and action and results are
// `unknown` until the module is declared. Checked by tsc; never executed.

async function looseCalls(): Promise<void> {
  const info: unknown = await PWAKit.call('platform', 'getInfo');
  const typed = await PWAKit.call('platform', 'getInfo', undefined, { timeout: 5000 });
  const platform: string = JSON.stringify(typed);
  await PWAKit.call('haptics', 'impact', { style: 'medium' });
  // @ts-expect-error the module name is still a string
  await PWAKit.call(42, 'getInfo');
  // @ts-expect-error options are still checked
  await PWAKit.call('platform', 'getInfo', undefined, { timeout: 'soon' });
  // @ts-expect-error an unknown result cannot be used as a string without a check
  const text: string = await PWAKit.call('platform', 'getInfo');
  PWAKit.on('bridge.error', (data) => void data.code);
  const viaProxy: unknown = await PWAKit.modules.platform.getInfo();
  await PWAKit.modules.haptics.impact({ style: 'medium' }, { timeout: 500 });
  await PWAKit.modules['any-module']['any.action']();
  // @ts-expect-error options are still checked through the proxy
  await PWAKit.modules.platform.getInfo(undefined, { signal: 'stop' });
  // @ts-expect-error an unknown result through the proxy cannot be used as a string either
  const proxied: string = await PWAKit.modules.platform.getInfo();
  const vibrated: boolean = await PWAKit.vibrate([100, 50, 100]);
  const { shared } = await PWAKit.share({ text: 'hi' });
  const possible: boolean = await PWAKit.canShare({ url: 'https://example.com/' });
  await PWAKit.clipboard.writeText('copied');
  const pasted: string = await PWAKit.clipboard.readText();
  await PWAKit.setAppBadge(2);
  await PWAKit.clearAppBadge();
  const { state } = await PWAKit.permissions.query({ name: 'geolocation' });
  await PWAKit.permissions.request({ name: 'camera' });
  void [info, platform, text, viaProxy, proxied, vibrated, shared, possible, pasted, state];
}

void looseCalls;
