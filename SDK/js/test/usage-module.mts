// Type-level usage of the ES-module entry. Checked by tsc; never executed.
import PWAKitDefault, { PWAKit, PWAKitError } from '../pwakit.mjs';

declare global {
  interface PWAKitModules {
    clipboard: {
      write: { payload: { text: string }; result: void };
      read: { payload: undefined; result: { text: string } };
    };
  }
}

export async function copyAndRead(text: string): Promise<string> {
  await PWAKit.call('clipboard', 'write', { text });
  const same: typeof PWAKit = PWAKitDefault;
  try {
    const { text: back } = await same.call('clipboard', 'read');
    return back;
  } catch (error) {
    if (error instanceof PWAKitError) {
      const typed: PWAKitError = error;
      return typed.code;
    }
    throw error;
  }
}

export async function refused(): Promise<void> {
  // @ts-expect-error write needs { text: string }
  await PWAKit.call('clipboard', 'write', { text: 1 });
}

export async function throughTheModuleEntry(photo: File): Promise<boolean> {
  const viaProxy: { text: string } = await PWAKit.modules.clipboard.read();
  await PWAKit.clipboard.writeText(viaProxy.text);
  const { shared } = await PWAKitDefault.share({ files: [photo] });
  const status: PWAKitWebPermissionStatus = await PWAKit.permissions.query({ name: 'camera' });
  // @ts-expect-error write through the proxy needs { text: string }
  await PWAKit.modules.clipboard.write({ text: 1 });
  return shared && status.state === 'granted';
}
