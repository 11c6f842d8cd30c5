// The Notes mini-app's own backend: it signs the person in with the launch code the page got
// from `session.getLaunchCode` (exchanged once with the platform server under the app's
// credential) and keeps each person's notes. The platform's tokens never reach it.
//
//   PWAKIT_SERVER=http://127.0.0.1:8080 NOTES_CREDENTIAL_ID=notes-backend \
//   NOTES_CREDENTIAL_SECRET=… notes-backend [--port 0]
//
// Prints `listening on http://127.0.0.1:PORT` once it listens.
import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI

struct SessionRequest: Decodable { var code: String }
struct NoteRequest: Decodable { var text: String }
struct Note: Codable { var text: String; var at: String }
struct SessionAnswer: Codable { var token: String; var displayName: String; var email: String; var notes: [Note] }
struct NotesAnswer: Codable { var notes: [Note] }

/// Sessions and notes, in memory.
actor Notebook {
    private var sessions: [String: String] = [:]
    private var names: [String: (String, String)] = [:]
    private var notes: [String: [Note]] = [:]

    func open(userId: String, displayName: String, email: String) -> String {
        let token = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
        sessions[token] = userId
        names[userId] = (displayName, email)
        if notes[userId] == nil {
            notes[userId] = [Note(text: "Welcome, \(displayName)! Your notes live on this backend.", at: Self.now())]
        }
        return token
    }

    func user(_ token: String) -> String? { sessions[token] }
    func list(_ userId: String) -> [Note] { notes[userId] ?? [] }
    func add(_ text: String, for userId: String) -> [Note] {
        notes[userId, default: []].insert(Note(text: text, at: Self.now()), at: 0)
        notes[userId] = Array(notes[userId]!.prefix(100))
        return notes[userId]!
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}

func fail(_ status: HTTPResponse.Status, _ message: String) -> HTTPError { HTTPError(status, message: message) }

let environment = ProcessInfo.processInfo.environment
guard let server = environment["PWAKIT_SERVER"].flatMap(URL.init(string:)),
    let credentialId = environment["NOTES_CREDENTIAL_ID"], let secret = environment["NOTES_CREDENTIAL_SECRET"]
else {
    FileHandle.standardError.write(Data("set PWAKIT_SERVER, NOTES_CREDENTIAL_ID and NOTES_CREDENTIAL_SECRET\n".utf8))
    exit(64)
}
let arguments = CommandLine.arguments
let port = arguments.firstIndex(of: "--port").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? 0
let platform = APIClient(baseURL: server)
let notebook = Notebook()

let router = Router()
router.add(
    middleware: CORSMiddleware(
        allowOrigin: .custom("app://notes"), allowHeaders: [.contentType, .authorization], allowMethods: [.get, .post, .options]))
router.post("session") { request, context -> SessionAnswer in
    let body = try await request.decode(as: SessionRequest.self, context: context)
    guard !body.code.isEmpty, body.code.utf8.count <= 256 else { throw fail(.badRequest, "code: must be 1…256 bytes") }
    do {
        let answer = try await platform.exchangeLaunchCode(body.code, credentialId: credentialId, secret: secret)
        guard answer.appId == "notes" else { throw fail(.forbidden, "the code is for another app") }
        let token = await notebook.open(userId: answer.user.id, displayName: answer.user.displayName, email: answer.user.email)
        return SessionAnswer(
            token: token, displayName: answer.user.displayName, email: answer.user.email,
            notes: await notebook.list(answer.user.id))
    } catch let error as APIClientError {
        throw fail(error.isTransient ? .badGateway : .unauthorized, "\(error.code): \(error.message)")
    }
}
@Sendable func signedIn(_ request: Request) async throws -> String {
    let header = request.headers[.authorization] ?? ""
    guard header.hasPrefix("Bearer "), let user = await notebook.user(String(header.dropFirst(7))) else {
        throw fail(.unauthorized, "sign in again")
    }
    return user
}
router.get("notes") { request, _ -> NotesAnswer in
    NotesAnswer(notes: await notebook.list(try await signedIn(request)))
}
router.post("notes") { request, context -> NotesAnswer in
    let user = try await signedIn(request)
    let body = try await request.decode(as: NoteRequest.self, context: context)
    let text = body.text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty, text.utf8.count <= 2000 else { throw fail(.badRequest, "text: must be 1…2000 bytes") }
    return NotesAnswer(notes: await notebook.add(text, for: user))
}
extension SessionAnswer: ResponseEncodable {}
extension NotesAnswer: ResponseEncodable {}

let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
    })
try await app.runService()
