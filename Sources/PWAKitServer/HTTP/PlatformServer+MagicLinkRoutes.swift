import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PWAKitAPI

extension PlatformServer {
    func addMagicLinkRoutes(to table: RouteTable) {
        table.add(.post, "/v1/auth/magic-link") { request, context in
            let body = try await RequestReader.json(MagicLinkRequest.self, from: request, limit: configuration.maximumJSONBody)
            let answer = try await magicLinks.request(body, address: clientAddress(request, context: context))
            return try JSONResponse.make(answer, status: .accepted)
        }
        table.add(.post, "/v1/auth/magic-link/token") { request, _ in
            let body = try await RequestReader.json(
                MagicLinkTokenRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(try await magicLinks.exchange(body))
        }
        table.add(.get, "/v1/auth/magic-link/open") { _, _ in
            // NB: the page never reads the token: it only tells the person where the link works.
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .referrerPolicy: "no-referrer",
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
                ],
                body: .init(byteBuffer: ByteBuffer(string: Self.magicLinkPage)))
        }
    }

    static let magicLinkPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Sign-in link</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d2430}</style>
        </head><body>
        <h1>Open this link in the app</h1>
        <p>This sign-in link works only in the app on the device that asked for it: copy it there
        (<code>pwakit identity magic-link --complete '&lt;link&gt;'</code> on Linux), or open it on that device.</p>
        <p>A browser that did not ask cannot use it, so nobody who sees this page is signed in.</p>
        </body></html>

        """
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
