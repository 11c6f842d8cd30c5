#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line of a benchmark: options with a value, flags and at most one leading count,
/// with `--help`.
///
/// Every option a benchmark reads is taken out of the arguments; ``finish()`` then refuses
/// whatever is left, so a misspelt option or a stray word is an error rather than a run with the
/// defaults. A value that is not what its option takes is an error naming that option.
///
/// ```swift
/// let (count, quick) = BenchmarkArguments.parse(name: "my-benchmark", usage: usage) { arguments in
///     (try arguments.integer("--count", default: 5000), try arguments.flag("--quick"))
/// }
/// ```
public struct BenchmarkArguments: Sendable {
    /// A command line the benchmark cannot run with.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The option or argument at fault.
        public let argument: String
        /// What is wrong with it.
        public let message: String

        /// A failure of `argument`.
        public init(_ argument: String, _ message: String) {
            self.argument = argument
            self.message = message
        }

        public var description: String { "\(argument): \(message)" }
    }

    private var remaining: [String]

    /// The arguments after the program's name.
    public init(_ arguments: [String]) {
        remaining = arguments
    }

    /// Whether `--help` or `-h` is among the arguments not read yet.
    public var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// Whether the first argument is `word` (a subcommand), taking it out if so.
    public mutating func subcommand(_ word: String) -> Bool {
        guard remaining.first == word else { return false }
        remaining.removeFirst()
        return true
    }

    /// Whether the flag `name` was given, taking it out.
    public mutating func flag(_ name: String) throws(Failure) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        guard !remaining.contains(name) else { throw Failure(name, "given more than once") }
        return true
    }

    /// The value of the option `name`, taking both out; `nil` when it was not given.
    public mutating func string(_ name: String) throws(Failure) -> String? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
            throw Failure(name, "needs a value")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        guard !remaining.contains(name) else { throw Failure(name, "given more than once") }
        return value
    }

    /// The whole number the option `name` takes, within `range`; `fallback` when it was not given.
    public mutating func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int> = 1...Int.max)
        throws(Failure) -> Int
    {
        guard let text = try string(name) else { return fallback }
        return try Self.number(text, of: name, in: range)
    }

    /// The one of `choices` the option `name` takes; `fallback` when it was not given.
    public mutating func choice(_ name: String, default fallback: String, of choices: [String]) throws(Failure) -> String {
        guard let value = try string(name) else { return fallback }
        guard choices.contains(value) else {
            throw Failure(name, "takes \(choices.joined(separator: ", ")), not \(value)")
        }
        return value
    }

    /// The leading argument taken as a whole number within `range` (an older form of a count, as in
    /// `BridgeBenchmark 50000`); `fallback` when the first argument is an option or there is none.
    public mutating func leadingInteger(_ name: String, default fallback: Int, in range: ClosedRange<Int> = 1...Int.max)
        throws(Failure) -> Int
    {
        guard let first = remaining.first, !first.hasPrefix("-") || Int(first) != nil else { return fallback }
        remaining.removeFirst()
        return try Self.number(first, of: name, in: range)
    }

    /// At most one of `flags`, taking it out; `nil` when none was given.
    public mutating func oneOf(_ flags: [String]) throws(Failure) -> String? {
        var given: [String] = []
        for name in flags where try flag(name) { given.append(name) }
        guard given.count <= 1 else {
            throw Failure(given[1], "cannot be combined with \(given[0])")
        }
        return given.first
    }

    /// Refuses whatever was not read: an unknown option, or a stray argument.
    public func finish() throws(Failure) {
        guard let first = remaining.first else { return }
        throw Failure(first, first.hasPrefix("-") ? "unknown option" : "unexpected argument")
    }

    static func number(_ text: String, of name: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let value = Int(text) else { throw Failure(name, "takes a whole number, not \(text)") }
        guard range.contains(value) else {
            let bound =
                range.upperBound == Int.max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw Failure(name, "takes a number \(bound), not \(value)")
        }
        return value
    }

    /// Reads the command line with `body`: `--help` (or `-h`), unless an option took it as its
    /// value, prints `usage` and exits 0; a failure prints `name: argument: message` and the usage
    /// on standard error and exits 2.
    public static func parse<T>(
        name: String, usage: String, _ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        _ body: (inout BenchmarkArguments) throws -> T
    ) -> T {
        var parsed = BenchmarkArguments(arguments)
        do {
            // NB: read first, so that `--dir -h` is a directory; `--help` is then left over.
            let value = try body(&parsed)
            if parsed.wantsHelp { throw Failure("--help", "asked for") }
            try parsed.finish()
            return value
        } catch {
            if parsed.wantsHelp {
                print(usage)
                exit(0)
            }
            let text = Array("\(name): \(error)\n\(usage)\n".utf8)
            _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(2)
        }
    }
}
