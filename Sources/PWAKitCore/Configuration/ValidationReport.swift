/// Everything the validator found in one document.
public struct ValidationReport: Sendable, Codable, Equatable {
    /// Every problem, in document order; errors and warnings mixed.
    public var issues: [ValidationIssue]

    /// Creates a report.
    public init(issues: [ValidationIssue] = []) {
        self.issues = issues
    }

    /// True when no issue is an error (warnings are allowed).
    public var isValid: Bool {
        !issues.contains { $0.severity == .error }
    }

    /// The issues that make the document invalid.
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// The issues that do not.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    private enum CodingKeys: String, CodingKey {
        case isValid, issues
    }

    /// Decodes a report; `isValid` is recomputed from the issues.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issues = try container.decode([ValidationIssue].self, forKey: .issues)
    }

    /// Encodes `{ "isValid": …, "issues": [ … ] }`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isValid, forKey: .isValid)
        try container.encode(issues, forKey: .issues)
    }
}
