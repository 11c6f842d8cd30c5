import Testing

@testable import BenchmarkArguments

@Suite struct BenchmarkArgumentsTests {
    typealias Failure = BenchmarkArguments.Failure

    @Test func optionsFlagsAndALeadingCountAreRead() throws {
        var arguments = BenchmarkArguments(["500", "--runs", "3", "--quick", "--dir", "/tmp/x"])
        let count = try arguments.leadingInteger("count", default: 7)
        let runs = try arguments.integer("--runs", default: 5)
        let (quick, slow) = (try arguments.flag("--quick"), try arguments.flag("--slow"))
        let directory = try arguments.string("--dir")
        #expect(count == 500 && runs == 3 && quick && !slow && directory == "/tmp/x")
        try arguments.finish()
    }

    @Test func whatIsNotGivenTakesItsDefault() throws {
        var arguments = BenchmarkArguments([])
        let count = try arguments.leadingInteger("count", default: 7)
        let runs = try arguments.integer("--runs", default: 5)
        let cores = try arguments.choice("--cores", default: "free", of: ["free", "one"])
        let only = try arguments.oneOf(["--a-only", "--b-only"])
        let directory = try arguments.string("--dir")
        #expect(count == 7 && runs == 5 && cores == "free" && only == nil && directory == nil)
        try arguments.finish()
    }

    @Test func aSubcommandIsTakenOnlyFirst() throws {
        var arguments = BenchmarkArguments(["serve", "--dir", "d"])
        let (run, serve) = (arguments.subcommand("run"), arguments.subcommand("serve"))
        let directory = try arguments.string("--dir")
        #expect(!run && serve && directory == "d")
        try arguments.finish()
        var later = BenchmarkArguments(["--dir", "d", "serve"])
        let serveLater = later.subcommand("serve")
        #expect(!serveLater)
    }

    @Test(arguments: [
        (["--runs", "abc"], Failure("--runs", "takes a whole number, not abc")),
        (["--runs", "0"], Failure("--runs", "takes a number from 1 to 100, not 0")),
        (["--runs", "-3"], Failure("--runs", "takes a number from 1 to 100, not -3")),
        (["--runs"], Failure("--runs", "needs a value")),
        (["--runs", "--quick"], Failure("--runs", "needs a value")),
        (["--runs", "99999999999999999999999"], Failure("--runs", "takes a whole number, not 99999999999999999999999")),
        (["--runs", "2", "--runs", "3"], Failure("--runs", "given more than once")),
        (["--runs", "200"], Failure("--runs", "takes a number from 1 to 100, not 200")),
    ])
    func aBadValueNamesItsOption(_ line: [String], _ expected: Failure) {
        var arguments = BenchmarkArguments(line)
        #expect(throws: expected) { _ = try arguments.integer("--runs", default: 5, in: 1...100) }
    }

    @Test func aCountWithNoUpperBoundSaysItsLowerOne() {
        var arguments = BenchmarkArguments(["--count", "0"])
        #expect(throws: Failure("--count", "takes a number at least 1, not 0")) {
            _ = try arguments.integer("--count", default: 5)
        }
    }

    @Test func aLeadingCountThatIsNoNumberIsRefused() {
        var arguments = BenchmarkArguments(["lots"])
        #expect(throws: Failure("requests", "takes a whole number, not lots")) {
            _ = try arguments.leadingInteger("requests", default: 10)
        }
    }

    @Test func aChoiceOutsideItsListIsRefused() {
        var arguments = BenchmarkArguments(["--cores", "many"])
        #expect(throws: Failure("--cores", "takes free, split, one, not many")) {
            _ = try arguments.choice("--cores", default: "free", of: ["free", "split", "one"])
        }
    }

    @Test func twoExclusiveFlagsAreRefused() {
        var arguments = BenchmarkArguments(["--durable-only", "--round-trip-only"])
        #expect(throws: Failure("--durable-only", "cannot be combined with --round-trip-only")) {
            _ = try arguments.oneOf(["--round-trip-only", "--durable-only"])
        }
    }

    @Test func whatWasNotReadIsRefused() throws {
        var misspelt = BenchmarkArguments(["--count", "5", "--conut", "6"])
        let count = try misspelt.integer("--count", default: 1)
        #expect(count == 5)
        #expect(throws: Failure("--conut", "unknown option")) { try misspelt.finish() }
        var stray = BenchmarkArguments(["--quick", "fast"])
        let quick = try stray.flag("--quick")
        #expect(quick)
        #expect(throws: Failure("fast", "unexpected argument")) { try stray.finish() }
    }

    @Test func helpIsSeenWherever() {
        #expect(BenchmarkArguments(["--count", "5", "--help"]).wantsHelp)
        #expect(BenchmarkArguments(["-h"]).wantsHelp)
        #expect(!BenchmarkArguments(["--count", "5"]).wantsHelp)
    }

    @Test func aRepeatedFlagIsRefused() {
        var arguments = BenchmarkArguments(["--quick", "--quick"])
        #expect(throws: Failure("--quick", "given more than once")) { _ = try arguments.flag("--quick") }
    }

    @Test func aNegativeLeadingCountIsReadAsANumberAndRefusedByItsRange() {
        var arguments = BenchmarkArguments(["-5"])
        #expect(throws: Failure("count", "takes a number at least 1, not -5")) {
            _ = try arguments.leadingInteger("count", default: 10)
        }
    }

    @Test func helpTakenAsAnOptionsValueIsNotHelp() throws {
        var arguments = BenchmarkArguments(["--dir", "-h"])
        let directory = try arguments.string("--dir")
        #expect(directory == "-h" && !arguments.wantsHelp)
        try arguments.finish()
    }

    @Test func anOversizedCommandLineIsRefusedByItsFirstUnknownArgument() throws {
        let line = (0..<10_000).map { "--option-\($0)" }
        var arguments = BenchmarkArguments(line)
        let quick = try arguments.flag("--quick")
        #expect(!quick)
        #expect(throws: Failure("--option-0", "unknown option")) { try arguments.finish() }
    }
}
