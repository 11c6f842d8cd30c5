import ArgumentParser
import Foundation
import PWAKitCore

/// A scripted walk through a window (`pwakit launcher --tour FILE`, `pwakit identity showcase
/// --tour FILE`): what a person would do, step by step, with screenshots. What the README's
/// pictures and the end-to-end tests use.
///
/// ```json
/// {"timeoutSeconds": 30, "steps": [
///   {"fill": {"#email": "ada@example.com", "#password": "…"}},
///   {"click": "#sign-in"},
///   {"waitFor": "#app-notes"},
///   {"screenshot": "launcher.png"},
///   {"click": "#app-notes"},
///   {"waitForApp": "notes"},
///   {"waitForText": "Signed in as"},
///   {"back": true}
/// ]}
/// ```
struct HostTour: Sendable, Equatable {
    /// One thing to do, in the view on screen (the launcher's page, or the app shown over it).
    enum Step: Sendable, Equatable {
        /// Sets the value of each field (CSS selector → text) as typing would.
        case fill([(selector: String, value: String)])
        /// Clicks the element.
        case click(String)
        /// Types the text one element shows into a field, as a person reads a number off one
        /// screen and types it on another.
        case copy(from: String, to: String)
        /// Waits until the element is shown.
        case waitFor(String)
        /// Waits until the page's text contains this.
        case waitForText(String)
        /// Waits until the app with this id is on screen and its page reported ready
        /// (`PWAKit.ready()`), its release trusted.
        case waitForApp(String)
        /// Saves what the window shows as a PNG at this path.
        case screenshot(String)
        /// Presses the native bar's back button.
        case back
        /// Creates this (empty) file: a signal to whoever runs the tour.
        case touch(String)
        /// Waits until this file exists: a signal from whoever runs the tour.
        case waitForFile(String)

        static func == (lhs: Step, rhs: Step) -> Bool { lhs.description == rhs.description }

        var name: String {
            switch self {
            case .fill: "fill"
            case .click: "click"
            case .copy: "copy"
            case .waitFor: "waitFor"
            case .waitForText: "waitForText"
            case .waitForApp: "waitForApp"
            case .screenshot: "screenshot"
            case .back: "back"
            case .touch: "touch"
            case .waitForFile: "waitForFile"
            }
        }

        var description: String {
            switch self {
            case .fill(let fields): "fill " + fields.map { "\($0.selector)" }.joined(separator: ", ")
            case .click(let value), .waitFor(let value), .waitForText(let value), .waitForApp(let value),
                .screenshot(let value), .touch(let value), .waitForFile(let value):
                "\(name) \(value)"
            case .copy(let from, let to): "copy \(from) → \(to)"
            case .back: "back"
            }
        }
    }

    /// The steps, in order.
    var steps: [Step]
    /// How long one step may wait.
    var timeout: Duration

    static let stepNames = [
        "fill", "click", "copy", "waitFor", "waitForText", "waitForApp", "screenshot", "back", "touch", "waitForFile",
    ]

    /// A problem with the tour file, naming the field at fault.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let path: String
        let message: String
        var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// Reads the tour file of `--tour`; a problem is printed naming the file (and the JSON path)
    /// and ends the command with exit status 2.
    static func load(_ path: String) throws -> HostTour {
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.writeError("error: --tour \(path): cannot read the file")
            throw ExitCode(2)
        }
        do {
            return try parse(data)
        } catch {
            Console.writeError("error: --tour \(path): \(error)")
            throw ExitCode(2)
        }
    }

    /// Reads a tour; every problem names its JSON path.
    static func parse(_ data: Data) throws(Problem) -> HostTour {
        guard data.count <= 1 << 20 else { throw Problem(path: "", message: "the file is larger than 1 MiB") }
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch {
            throw Problem(path: error.path, message: "not valid JSON: \(error.message)")
        }
        guard let object = root.objectValue else { throw Problem(path: "", message: "must be an object with `steps`") }
        for key in object.keys where !["steps", "timeoutSeconds"].contains(key) {
            throw Problem(path: key, message: "unknown field; expected steps or timeoutSeconds")
        }
        var seconds = 30
        if let value = object["timeoutSeconds"] {
            guard let number = value.intValue, (1...600).contains(number) else {
                throw Problem(path: "timeoutSeconds", message: "must be a whole number of seconds, 1…600")
            }
            seconds = number
        }
        guard let list = object["steps"]?.arrayValue else {
            throw Problem(path: "steps", message: "must be an array of steps")
        }
        guard (1...500).contains(list.count) else { throw Problem(path: "steps", message: "must hold 1…500 steps") }
        var steps: [Step] = []
        for (index, item) in list.enumerated() {
            steps.append(try step(item, path: "steps[\(index)]"))
        }
        return HostTour(steps: steps, timeout: .seconds(seconds))
    }

    static func step(_ item: JSONValue, path: String) throws(Problem) -> Step {
        guard let object = item.objectValue, object.count == 1, let (key, value) = object.first else {
            throw Problem(path: path, message: "must be an object with exactly one of \(stepNames.joined(separator: ", "))")
        }
        let at = "\(path).\(key)"
        func text() throws(Problem) -> String {
            guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 4096 else {
                throw Problem(path: at, message: "must be a non-empty string of at most 4096 bytes")
            }
            return text
        }
        switch key {
        case "fill":
            guard let fields = value.objectValue, !fields.isEmpty else {
                throw Problem(path: at, message: "must be an object of CSS selector → text")
            }
            var pairs: [(selector: String, value: String)] = []
            for (selector, text) in fields.sorted(by: { $0.key < $1.key }) {
                guard let text = text.stringValue, text.utf8.count <= 4096 else {
                    throw Problem(path: "\(at).\(selector)", message: "must be a string of at most 4096 bytes")
                }
                pairs.append((selector, text))
            }
            return .fill(pairs)
        case "click": return .click(try text())
        case "copy":
            guard let fields = value.objectValue, fields.count == 2, let from = fields["from"]?.stringValue,
                let to = fields["to"]?.stringValue, !from.isEmpty, !to.isEmpty, from.utf8.count <= 4096,
                to.utf8.count <= 4096
            else {
                throw Problem(path: at, message: "must be {\"from\": selector, \"to\": selector}")
            }
            return .copy(from: from, to: to)
        case "waitFor": return .waitFor(try text())
        case "waitForText": return .waitForText(try text())
        case "waitForApp": return .waitForApp(try text())
        case "screenshot":
            let path = try text()
            guard path.lowercased().hasSuffix(".png") else { throw Problem(path: at, message: "must name a .png file") }
            return .screenshot(path)
        case "back":
            guard value.boolValue == true else { throw Problem(path: at, message: "must be true") }
            return .back
        case "touch": return .touch(try text())
        case "waitForFile": return .waitForFile(try text())
        default:
            throw Problem(path: at, message: "unknown step; expected one of \(stepNames.joined(separator: ", "))")
        }
    }
}
