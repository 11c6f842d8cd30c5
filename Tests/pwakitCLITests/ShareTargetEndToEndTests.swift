#if WebKitGTK
    import Foundation
    import Testing

    /// The host honours the configuration's `shareTarget` (the manifest's `share_target`): a share
    /// opens the action page with the shared values under their parameters, read back by the page
    /// itself in WebKitGTK.
    @Suite(.serialized) struct ShareTargetEndToEndTests {
        static let page = """
            <!doctype html><meta charset="utf-8"><title>share</title>
            <script>
            window.addEventListener('load', async () => {
              const query = new URLSearchParams(location.search);
              const expected = JSON.parse(decodeURIComponent(location.hash.slice(1) || '%7B%7D'));
              const results = [];
              const check = (name, ok, detail) => results.push({ name, ok, detail });
              check('the action page opened', location.pathname === '/share.html', location.pathname);
              check('the action kept its own query', query.get('from') === 'share', query.get('from'));
              check('the url', query.get('link') === 'https://example.com/a b?x=1&y=2#frag', query.get('link'));
              check('the title', query.get('name') === 'Café & "co" + more', query.get('name'));
              check('the text', query.get('body') === 'line one\\nline two', query.get('body'));
              check('nothing else', [...query.keys()].sort().join(',') === 'body,from,link,name', [...query.keys()].join(','));
              const failed = results.filter((r) => !r.ok).length;
              await PWAKit.call('report', 'finish', { passed: results.length - failed, failed, data: results });
            });
            </script>
            """

        static func app(in scratch: TemporaryDirectory, shareTarget: String?) throws -> URL {
            try scratch.write("app/share.html", page)
            try scratch.write("app/index.html", "<!doctype html><title>home</title>")
            return try scratch.write(
                "app/pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "Sharer", "bundleId": "dev.pwakit.e2e.share", "startUrl": "app://sharer/index.html"},
                 "origins": {"allowed": ["pwakit.dev"]}\(shareTarget.map { ", \"shareTarget\": \($0)" } ?? "")}
                """)
        }

        @Test func aShareOpensTheActionPageWithItsValues() throws {
            let scratch = try TemporaryDirectory()
            let config = try Self.app(
                in: scratch,
                shareTarget: #"{"action": "/share.html?from=share", "params": {"url": "link", "title": "name", "text": "body"}}"#)
            let run = try PWAKitBinary.run([
                "run", config.path, "--report", "--data-dir", scratch.url.appendingPathComponent("data").path, "--timeout", "60",
                "--share-url", "https://example.com/a b?x=1&y=2#frag", "--share-title", #"Café & "co" + more"#,
                "--share-text", "line one\nline two",
            ])
            #expect(run.status == 0, "\(run.stdout.suffix(3000)) \(run.stderr.suffix(2000))")
            #expect(run.stdout.contains("\"passed\":6") || run.stdout.contains("\"passed\": 6"), "\(run.stdout.suffix(2000))")
        }

        @Test func withoutAShareTargetOrWithALinkTheShareIsRefused() throws {
            let scratch = try TemporaryDirectory()
            let config = try Self.app(in: scratch, shareTarget: nil)
            let none = try PWAKitBinary.run(["run", config.path, "--share-url", "https://example.com/"])
            #expect(none.status == 2)
            #expect(none.stderr.contains("no shareTarget"), "\(none.stderr)")
            let both = try PWAKitBinary.run(["run", config.path, "sharer://open", "--share-url", "https://example.com/"])
            #expect(both.status == 64)
            #expect(both.stderr.contains("not both"), "\(both.stderr)")
            let control = try PWAKitBinary.run(["run", config.path, "--share-title", "a\u{1}b"])
            #expect(control.status == 64)
            #expect(control.stderr.contains("--share-title"), "\(control.stderr)")
        }
    }
#endif
