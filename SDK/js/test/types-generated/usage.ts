// Type-level usage of the generated module declarations (pwakit-modules.d.ts).
// Checked with `tsc --noEmit -p SDK/js/test/types-generated`; never executed.

async function exerciseGeneratedModules(): Promise<void> {
  const info = await PWAKit.call('platform', 'getInfo');
  const build: string = info.appBuild;
  const simulated: boolean = info.providers['haptics'] === 'simulated';

  await PWAKit.call('haptics', 'impact', { style: 'rigid' });
  // @ts-expect-error not a declared impact style
  await PWAKit.call('haptics', 'impact', { style: 'wobbly' });
  // @ts-expect-error the payload is required
  await PWAKit.call('haptics', 'impact');
  await PWAKit.call('haptics', 'selection');

  const scheduled = await PWAKit.call('notifications', 'schedule', {
    id: 'standup',
    title: 'Stand up',
    trigger: { type: 'calendar', hour: 9, minute: 30, weekday: 2, repeats: true },
  });
  const when: string = scheduled.nextFireDate;
  await PWAKit.call('notifications', 'schedule', {
    id: 'soon',
    title: 'Soon',
    trigger: { type: 'timeInterval', seconds: 90 },
  });
  // @ts-expect-error a date trigger needs its date
  await PWAKit.call('notifications', 'schedule', { id: 'x', title: 'x', trigger: { type: 'date' } });
  const state: 'not_determined' | 'denied' | 'granted' | 'unavailable' = (
    await PWAKit.call('notifications', 'getPermissionState')
  ).state;

  const shared: boolean = (await PWAKit.call('share', 'share', { text: 'hi', files: [{ name: 'a.txt', type: 'text/plain', data: 'aGk=' }] })).shared;
  const secret: string | undefined = (await PWAKit.call('secureStorage', 'get', { key: 'token' })).value;
  const products = await PWAKit.call('iap', 'getProducts', { productIds: ['pro'] });
  const kind: 'consumable' | 'nonConsumable' | 'autoRenewable' | 'nonRenewable' = products.products[0].type;
  const camera = await PWAKit.call('camera', 'request');
  const granted: boolean = camera.state === 'granted';
  const ready: boolean = (await PWAKit.call('lifecycle', 'ready')).acknowledged;

  // @ts-expect-error no such module
  await PWAKit.call('teleport', 'go');
  // @ts-expect-error no such action
  await PWAKit.call('clipboard', 'cut');

  PWAKit.on('push', (push) => {
    const how: 'received' | 'tapped' = push.type;
    void how;
  });

  void [build, simulated, when, state, shared, secret, kind, granted, ready];
}

// PWAKit.modules takes its types from the same declarations as PWAKit.call.
async function exerciseGeneratedProxy(): Promise<void> {
  await PWAKit.modules.haptics.impact({ style: 'soft' }, { timeout: 1000 });
  await PWAKit.modules.haptics.selection();
  const camera = await PWAKit.modules.camera.request();
  const state: 'granted' | 'denied' | 'notDetermined' | 'restricted' = camera.state;
  const vibrated: boolean = (await PWAKit.modules.vibration.vibrate({ pattern: [100] })).vibrated;
  const { impact } = PWAKit.modules.haptics;
  await impact({ style: 'light' });
  // @ts-expect-error not a declared impact style
  await PWAKit.modules.haptics.impact({ style: 'wobbly' });
  // @ts-expect-error the payload is required
  await PWAKit.modules.haptics.impact();
  // @ts-expect-error no such module
  await PWAKit.modules.teleport.go();
  // @ts-expect-error no such action
  await PWAKit.modules.clipboard.cut();

  // The Web API counterparts keep their own types beside the generated ones.
  const web: 'granted' | 'denied' | 'prompt' = (await PWAKit.permissions.query({ name: 'camera' })).state;
  const shared: boolean = (await PWAKit.share({ text: 'hi' })).shared;
  const text: string = await PWAKit.clipboard.readText();
  void [state, vibrated, web, shared, text];
}

void [exerciseGeneratedModules, exerciseGeneratedProxy];
