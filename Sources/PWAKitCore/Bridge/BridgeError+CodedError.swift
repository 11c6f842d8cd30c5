public import PWAKitErrors

extension BridgeError: CodedError {
    /// The wire code.
    public var codeName: String { code.rawValue }
    /// `details.path`, when the error names the field at fault.
    public var fieldPath: String? { details?["path"]?.stringValue }
}

extension ConfigurationError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
    /// The first error's path in the validation report, when there is one.
    public var fieldPath: String? { report?.errors.first?.path }
}

extension JSONParseError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
}

extension OriginPatternError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
}

extension SchemaError: CodedError {
    /// `schema_invalid`: a type the schema recorder cannot describe (a programming error).
    public var codeName: String { "schema_invalid" }
    /// The type and why.
    public var message: String { description }
}

extension RegistryError: CodedError {
    /// `registry_invalid`: a module registration refused (a programming error).
    public var codeName: String { "registry_invalid" }
    /// Why.
    public var message: String { reason }
}
