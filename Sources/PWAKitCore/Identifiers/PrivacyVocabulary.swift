/// The names Apple's files accept where the configuration names them: `Info.plist` usage
/// descriptions, and the privacy manifest's collected data types and purposes.
public enum PrivacyVocabulary {
    /// The usage-description keys `identifiers.usageDescriptions` accepts.
    public static let usageDescriptionKeys = [
        "NSBluetoothAlwaysUsageDescription", "NSCalendarsFullAccessUsageDescription", "NSCameraUsageDescription",
        "NSContactsUsageDescription", "NSFaceIDUsageDescription", "NSHealthShareUsageDescription",
        "NSHealthUpdateUsageDescription", "NSLocalNetworkUsageDescription",
        "NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationWhenInUseUsageDescription",
        "NSMicrophoneUsageDescription", "NSMotionUsageDescription", "NSPhotoLibraryAddUsageDescription",
        "NSPhotoLibraryUsageDescription", "NSSpeechRecognitionUsageDescription", "NSUserTrackingUsageDescription",
    ]

    /// The usage descriptions each feature needs: iOS ends an app that asks for the permission without one.
    public static let requiredUsageDescriptions: [(feature: String, keys: [String])] = [
        ("biometrics", ["NSFaceIDUsageDescription"]),
        ("cameraPermission", ["NSCameraUsageDescription"]),
        ("healthkit", ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]),
        ("locationPermission", ["NSLocationWhenInUseUsageDescription"]),
        ("microphonePermission", ["NSMicrophoneUsageDescription"]),
    ]

    /// The collected data types, without the `NSPrivacyCollectedDataType` prefix.
    public static let dataTypes = [
        "Name", "EmailAddress", "PhoneNumber", "PhysicalAddress", "OtherUserContactInfo", "Health", "Fitness",
        "PaymentInfo", "CreditInfo", "OtherFinancialInfo", "PreciseLocation", "CoarseLocation", "SensitiveInfo",
        "Contacts", "EmailsOrTextMessages", "PhotosorVideos", "AudioData", "GameplayContent", "CustomerSupport",
        "OtherUserContent", "BrowsingHistory", "SearchHistory", "UserID", "DeviceID", "PurchaseHistory",
        "ProductInteraction", "AdvertisingData", "OtherUsageData", "CrashData", "PerformanceData",
        "OtherDiagnosticData", "EnvironmentScanning", "Hands", "Head", "OtherDataTypes",
    ]

    /// The collection purposes, without the `NSPrivacyCollectedDataTypePurpose` prefix.
    public static let purposes = [
        "ThirdPartyAdvertising", "DeveloperAdvertising", "Analytics", "ProductPersonalization", "AppFunctionality",
        "Other",
    ]
}
