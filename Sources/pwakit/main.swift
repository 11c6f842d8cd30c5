import PWAKitCore

print("pwakit \(PWAKit.version)")
