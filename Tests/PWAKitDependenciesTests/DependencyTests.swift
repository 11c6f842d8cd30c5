import Foundation
import PWAKitAPI
import PWAKitDependencies
import PWAKitFlags
import PWAKitTesting
import Testing

/// Code that reads its dependencies where it runs, as production code does.
struct Stamp {
    @Dependency(\.date) var date
    @Dependency(\.uuid) var uuid

    func make() -> String { "\(uuid().uuidString)@\(Int(date.now.timeIntervalSince1970))" }
}

enum AnswerKey: DependencyKey {
    static var liveValue: Int { 42 }
    static var testValue: Int? { 7 }
}

extension DependencyValues {
    var answer: Int {
        get { self[AnswerKey.self] }
        set { self[AnswerKey.self] = newValue }
    }
}

@Suite("Dependencies")
struct DependencyTests {
    static let fixed = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    @Test("live code gets live values; a scope's values reach the code it runs and the tasks it starts")
    func scopes() async throws {
        #expect(DependencyValues.current.answer == 42)
        #expect(DependencyValues.current.date.now.timeIntervalSinceNow.magnitude < 60)
        let stamp = await withDependencies {
            $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
            $0.uuid = UUIDGenerator { Self.fixed }
        } operation: {
            await Task { Stamp().make() }.value
        }
        #expect(stamp == "\(Self.fixed.uuidString)@1800000000")
        #expect(DependencyValues.current.isSet(AnswerKey.self) == false)
    }

    @Test("a test context gives a key's test value; what the test sets wins")
    func testContext() async throws {
        let answers = await withTestDependencies {
            let before = DependencyValues.current.answer
            let after = withDependencies {
                $0.answer = 9
            } operation: {
                DependencyValues.current.answer
            }
            return [before, after]
        }
        #expect(answers == [7, 9])
    }

    @Test("parallel tests each see their own values")
    func parallel() async throws {
        let seen = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                group.addTask {
                    await withTestDependencies {
                        $0.answer = index
                    } operation: {
                        await Task.yield()
                        return DependencyValues.current.answer == index
                    }
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(seen)
    }

    @Test("the platform's keys take test values: a clock, a transport, flags, storage")
    func platformKeys() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory
        let flags = FeatureFlagStore(defaults: ["beta": .bool(true)])
        let (sameClock, directory, beta) = await withTestDependencies {
            $0.clock = clock
            $0.storageDirectory = folder
            $0.featureFlags = flags
            $0.random = RandomSource { 7 }
        } operation: {
            (
                DependencyValues.current.clock as? ManualClock === clock, DependencyValues.current.storageDirectory,
                DependencyValues.current.featureFlags.bool("beta")
            )
        }
        #expect(sameClock && directory == folder && beta)
    }

    @Test("reading an unimplemented dependency in a test stops the test, naming the key")
    func unimplementedFailsLoudly() async {
        await #expect(processExitsWith: .failure) {
            _ = await withTestDependencies { DependencyValues.current.httpTransport }
        }
        await #expect(processExitsWith: .failure) {
            _ = await withTestDependencies { DependencyValues.current.date.now }
        }
    }
}
