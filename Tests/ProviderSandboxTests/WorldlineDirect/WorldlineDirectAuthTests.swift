import Foundation
import ProviderSandbox
import Testing

@Suite struct WorldlineDirectAuthTests {
    @Test func authenticatorMatchesThePublishedVectors() {
        let date = "Fri, 06 Jun 2014 13:39:43 GMT"
        let post = WorldlineDirectAuthenticator.stringToSign(
            method: "POST", contentType: "application/json", date: date,
            headers: [
                (name: "X-GCS-ServerMetaInfo", value: "eyJzZGsiOiJ0ZXN0In0="),
                (name: "Accept", value: "*/*"),
                (name: "X-GCS-Idempotence-Key", value: "idem-1"),
            ],
            resource: "/v2/MERCH1/payments")
        #expect(
            post == "POST\napplication/json\n\(date)\nx-gcs-idempotence-key:idem-1\n"
                + "x-gcs-servermetainfo:eyJzZGsiOiJ0ZXN0In0=\n/v2/MERCH1/payments\n")
        #expect(
            WorldlineDirectAuthenticator.authorization(
                apiKeyId: "KEYID123", secretApiKey: "secret-key-abc", stringToSign: post)
                == "GCS v1HMAC:KEYID123:wgmnJcO4+6apek4X3EuUNvAJnugf6xWQ5AWRxcPRkJE=")
        let get = WorldlineDirectAuthenticator.stringToSign(
            method: "GET", contentType: nil, date: date, headers: [], resource: "/v2/MERCH1/payments/PAY1?foo=bar%20baz"
        )
        #expect(
            WorldlineDirectAuthenticator.signature(secretApiKey: "secret-key-abc", stringToSign: get)
                == "npkksz/G305Jf3aQ+lXKzp1JdDrmReAhk0iJKqzaGxU=")
        let parsed = WorldlineDirectAuthenticator.parseHTTPDate(date)
        #expect(parsed.map(WorldlineDirectAuthenticator.httpDate) == date)
    }

    @Test func signedRequestIsAcceptedWithEveryXGCSHeaderSigned() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.call(
                "POST", "sessions", json: [String: Any](),
                extraHeaders: [("X-GCS-ServerMetaInfo", "eyJzZGsiOiJ0ZXN0In0="), ("X-GCS-ClientExtra", "a")])
            #expect(reply.status == 201)
            #expect(reply.string("clientSessionId")?.isEmpty == false)
            #expect(reply.string("clientApiUrl") == sandbox.root + "/client")
            #expect((reply.object["invalidTokens"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func signatureOverThePathWithoutTheMountPrefixIsAccepted() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.call(
                "POST", "sessions", json: [String: Any](), signedResource: "/v2/MERCH1/sessions")
            #expect(reply.status == 201)
        }
    }

    @Test func badSignatureIsRejectedWith401AndTheErrorBody() async throws {
        try await withWorldlineSandbox { sandbox in
            let reply = try await sandbox.m1.call("POST", "sessions", json: [String: Any](), signingSecret: "wrong")
            #expect(reply.status == 401)
            #expect(reply.errorCode == "40101001")
            #expect(reply.string("errorId")?.isEmpty == false)
            let error = try #require((reply.object["errors"] as? [[String: Any]])?.first)
            #expect(error["httpStatusCode"] as? Int == 401)
            #expect(error["category"] as? String == "DIRECT_PLATFORM_ERROR")
        }
    }

    @Test func unsignedXGCSHeaderBreaksTheSignature() async throws {
        try await withWorldlineSandbox { sandbox in
            // The header is sent but the signature is computed as if it were absent.
            let url = sandbox.baseURL + "/worldline-direct/v2/MERCH1/payments/1_0"
            let date = httpDate(sandbox.clock.now)
            let text = "GET\n\n\(date)\n/worldline-direct/v2/MERCH1/payments/1_0\n"
            let signature = WorldlineDirectAuthenticator.signature(secretApiKey: "secret-key-abc", stringToSign: text)
            let good = try await wlSend(
                "GET", url, headers: [("Authorization", "GCS v1HMAC:KEYID123:\(signature)"), ("Date", date)])
            #expect(good.status == 404)
            #expect(good.errorCode == "40401001")
            let bad = try await wlSend(
                "GET", url,
                headers: [
                    ("Authorization", "GCS v1HMAC:KEYID123:\(signature)"), ("Date", date), ("X-GCS-Extra", "x"),
                ])
            #expect(bad.status == 401)
        }
    }

    @Test func staleOrMissingDateIsRejected() async throws {
        try await withWorldlineSandbox { sandbox in
            let stale = try await sandbox.m1.call(
                "POST", "sessions", json: [String: Any](), date: sandbox.clock.now.addingTimeInterval(-16 * 60))
            #expect(stale.status == 401)
            let withinSkew = try await sandbox.m1.call(
                "POST", "sessions", json: [String: Any](), date: sandbox.clock.now.addingTimeInterval(-14 * 60))
            #expect(withinSkew.status == 201)
            let missing = try await wlSend(
                "POST", sandbox.root + "/v2/MERCH1/sessions",
                headers: [("Authorization", "GCS v1HMAC:KEYID123:AAAA"), ("Content-Type", "application/json")],
                json: [String: Any]())
            #expect(missing.status == 401)
            #expect(missing.errorCode == "40101001")
        }
    }

    @Test func keyOfAnotherMerchantIsForbidden() async throws {
        try await withWorldlineSandbox { sandbox in
            let other = WLClient(
                root: sandbox.root, merchantId: "MERCH2", keyId: "KEYID123", secret: "secret-key-abc",
                clock: sandbox.clock)
            let reply = try await other.call("POST", "sessions", json: [String: Any]())
            #expect(reply.status == 403)
        }
    }
}
