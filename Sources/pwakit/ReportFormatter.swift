import PWAKitCore

/// Renders a ``ValidationReport`` for people, one issue per line with its JSON path.
enum ReportFormatter {
    /// `invalid: 2 errors, 1 warning` — the summary after the file name.
    static func summary(for report: ValidationReport) -> String {
        var parts = [report.isValid ? "valid" : "invalid"]
        if !report.errors.isEmpty { parts.append(count(report.errors.count, "error")) }
        if !report.warnings.isEmpty { parts.append(count(report.warnings.count, "warning")) }
        return parts.joined(separator: ", ")
    }

    /// `  error    origins.allowed[2]: "*.": empty label`, errors first.
    static func lines(for report: ValidationReport) -> [String] {
        (report.errors + report.warnings).map { issue in
            let label = issue.severity == .error ? "error  " : "warning"
            return "  \(label)  \(issue)"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
