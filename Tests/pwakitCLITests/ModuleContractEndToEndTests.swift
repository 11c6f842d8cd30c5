#if WebKitGTK
    import Foundation
    import PWAKitCore
    import PWAKitModules
    import Testing

    /// The module contract in the real WebKitGTK host: a page calls every action of every module
    /// through the injected SDK, with its example payload and with a malformed one; each result
    /// must match the action's declared schema and each failure carry a declared code.
    @Suite(.serialized) struct ModuleContractEndToEndTests {
        @Test func everyActionAnswersInRealWebKitAsItsSchemaDeclares() throws {
            let schemas = try ModuleCatalog.schemas()
            let app = try TemporaryDirectory()
            let page = HostEndToEndTests.pages.appendingPathComponent("contract/index.html")
            try app.write("bundle/index.html", String(contentsOf: page, encoding: .utf8))
            try app.write(
                "bundle/schema.js", "window.PWAKIT_SCHEMA = \(JSONSerializer.serialize(.array(schemas.map(\.json))));\n")
            let config = try app.write(
                "pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "Contract", "bundleId": "dev.pwakit.e2e.contract", "startUrl": "app://contract/index.html"},
                 "origins": {"allowed": ["pwakit.dev"]},
                 "features": {"healthkit": true, "iap": true, "payments": true, "liveActivity": true, "widgets": true,
                              "backgroundRefresh": true},
                 "payments": {"merchantId": "merchant.dev.pwakit.contract", "countryCode": "US", "merchantName": "Contract"}}
                """)
            let run = try HostEndToEndTests.run(
                config.path,
                [
                    "--bundle", app.url.appendingPathComponent("bundle").path,
                    // The real printer writes a PDF instead of opening its dialog.
                    "--print-to", app.url.appendingPathComponent("contract.pdf").path,
                ])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let log = try #require(run.events("log").first { $0["message"] as? String == "contract" })
            let data = try JSONParser.parse(JSONSerialization.data(withJSONObject: log["data"] ?? [:]))
            let results = try #require(data["results"]?.arrayValue)

            var succeeded = 0
            for schema in schemas {
                let declared = Set(schema.errors.map(\.code))
                for action in schema.actions {
                    let name = "\(schema.name).\(action.name)"
                    guard
                        let result = results.first(where: {
                            $0["module"] == .string(schema.name) && $0["action"] == .string(action.name)
                        })
                    else {
                        Issue.record("\(name) was not called")
                        continue
                    }
                    let valid = result["valid"] ?? .null
                    if valid["success"] == .bool(true) {
                        succeeded += 1
                        if let shape = action.result {
                            let issues = SchemaValidator.issues(valid["data"] ?? .null, against: shape, path: "data")
                            #expect(issues.isEmpty, "\(name): \(issues)")
                        } else {
                            #expect(valid["data"] == nil, "\(name) declares no result but answered \(valid)")
                        }
                    } else {
                        let code = valid["code"]?.stringValue ?? ""
                        #expect(declared.contains(code), "\(name) failed with an undeclared code: \(valid)")
                    }
                    let malformed = result["malformed"] ?? .null
                    #expect(malformed["code"] == "invalid_payload", "\(name) malformed: \(malformed)")
                    if action.payload != nil {
                        #expect(malformed["path"] == "payload", "\(name) malformed: \(malformed)")
                    }
                }
            }
            let printed = results.first { $0["module"] == "print" && $0["action"] == "print" }?["valid"]?["data"]?["printed"]
            #expect(printed == true, "print.print did not print through the real printer")
            // Most actions must really succeed, not merely fail with a declared code.
            let total = schemas.reduce(0) { $0 + $1.actions.count }
            #expect(succeeded >= total - 8, "only \(succeeded) of \(total) actions succeeded")
        }
    }
#endif
