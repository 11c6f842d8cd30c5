import PWAKitCore
import PWAKitModules
import Testing

@Suite struct PlatformModuleTests {
    struct FixedProvider: PlatformInfoProvider {
        var platform = "linux"
        var osVersion = "Debian GNU/Linux 12 (bookworm)"
        var deviceModel = "x86_64"
        var deviceName = "ci"
        var deviceFeatures = PlatformInfo.DeviceFeatures.simulated
    }

    @Test func getInfoReportsDeviceAndAppThroughTheBridge() async throws {
        var registry = ModuleRegistry()
        try registry.register(
            PlatformModule(
                provider: FixedProvider(), providers: ["haptics": .simulated, "clipboard": .real], secureStorage: "memory"))
        let configuration = PWAConfiguration(
            app: AppSection(name: "Hello", bundleId: "dev.pwakit.hello", startUrl: "app://hello/index.html"),
            origins: OriginsSection(allowed: ["pwakit.dev"]))
        let dispatcher = BridgeDispatcher(registry: registry, configuration: configuration, version: "2.1.0", build: "42")
        let page = await dispatcher.openPage(origin: "app://hello", grant: .all) { _ in }
        let reply = await dispatcher.handle(#"{"id":"1","module":"platform","action":"getInfo"}"#, from: page)
        #expect(
            reply?.json
                == #"{"id":"1","success":true,"data":{"aliases":{"cameraPermission":"camera","locationPermission":"location","microphonePermission":"microphone"},"appBuild":"42","appVersion":"2.1.0","buildNumber":"42","deviceFeatures":"simulated","deviceModel":"x86_64","deviceName":"ci","isNative":true,"osVersion":"Debian GNU/Linux 12 (bookworm)","platform":"linux","providers":{"clipboard":"real","haptics":"simulated"},"pwaKitVersion":"\#(PWAKit.version)","pwakitVersion":"\#(PWAKit.version)","secureStorage":"memory","version":"Debian GNU/Linux 12 (bookworm)"}}"#
        )
        let bad = await dispatcher.handle(#"{"id":"2","module":"platform","action":"getInfo","payload":"x"}"#, from: page)
        #expect(bad?.json.contains(#""code":"invalid_payload""#) == true)
    }

    @Test func systemProviderReadsThisMachine() {
        let provider = SystemPlatformInfoProvider()
        #expect(!provider.osVersion.isEmpty)
        #expect(!provider.deviceModel.isEmpty)
        #if os(Linux)
            #expect(provider.platform == "linux")
            #expect(provider.deviceFeatures == .simulated)
        #endif
    }

    @Test func osReleasePrettyName() {
        #expect(SystemPlatformInfoProvider(osRelease: "/nonexistent").osVersion.hasPrefix("Linux "))
    }
}
