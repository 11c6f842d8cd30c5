import Testing
import PWAKitCore

@Test func versionIsSemantic() {
    #expect(PWAKit.version.split(separator: ".").count == 3)
}
