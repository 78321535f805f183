import Foundation
import ProviderSandbox
import Testing

@Suite struct CitconTokenTests {
    @Test func serverAndClientTokensAreIssuedAndCounted() async throws {
        try await withSandbox { sandbox in
            let server = try await sandbox.citcon.requestToken(privateKey: TestMerchants.m1.privateKey, kind: "server")
            #expect(server.status == 200)
            #expect(server.envelopeStatus == "success")
            #expect(server.object["app"] as? String == "citcon_upi")
            #expect(server.string("access_token")?.hasPrefix("UPI_") == true)
            #expect(server.string("token_type") == "server")
            #expect(server.int("expiry") == Int64(sandbox.clock.now.timeIntervalSince1970) + 86_400)
            #expect((server.data["permission"] as? [String])?.contains("refund") == true)

            let client = try await sandbox.citcon.requestToken(privateKey: TestMerchants.m1.privateKey, kind: "client")
            #expect(client.string("token_type") == "client")
            #expect((client.data["permission"] as? [String])?.contains("refund") == false)
            #expect(client.string("access_token") != server.string("access_token"))

            #expect(await sandbox.server.citcon.tokensIssued(merchant: "m1", kind: .server) == 1)
            #expect(await sandbox.server.citcon.tokensIssued(merchant: "m1", kind: .client) == 1)
            #expect(await sandbox.server.citcon.tokensIssued(merchant: "m2", kind: .server) == 0)

            let counts = try await send(.get, sandbox.adminURL + "/tokens")
            let issued = counts.object["issued"] as? [String: [String: Int]]
            #expect(issued?["m1"]?["server"] == 1)
        }
    }

    @Test func wrongOrMissingKeyIsRefusedWith4010() async throws {
        try await withSandbox { sandbox in
            let wrong = try await sandbox.citcon.requestToken(privateKey: "pk_unknown")
            #expect(wrong.status == 401)
            #expect(wrong.envelopeStatus == "fail")
            #expect(wrong.code == "4010")

            let missing = try await sandbox.citcon.requestToken(privateKey: nil)
            #expect(missing.status == 401)
            #expect(missing.code == "4010")

            let badKind = try await sandbox.citcon.requestToken(privateKey: TestMerchants.m1.privateKey, kind: "root")
            #expect(badKind.status == 400)
            #expect(badKind.code == "4000")

            #expect(await sandbox.server.citcon.tokensIssued(merchant: "m1", kind: .server) == 0)
        }
    }

    @Test func expiredOrUnknownTokenIsRefusedWith4010() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.citcon.token()
            let ok = try await sandbox.citcon.createCharge(token: token, reference: "exp-1", amount: 100)
            #expect(ok.status == 200)

            sandbox.clock.advance(by: 86_400 + 1)
            let expired = try await sandbox.citcon.createCharge(token: token, reference: "exp-2", amount: 100)
            #expect(expired.status == 401)
            #expect(expired.code == "4010")

            let unknown = try await sandbox.citcon.createCharge(token: "UPI_nope", reference: "exp-3", amount: 100)
            #expect(unknown.status == 401)
            #expect(unknown.code == "4010")

            // A fresh token works again, and the admin expiry endpoint invalidates it at once.
            let fresh = try await sandbox.citcon.token()
            #expect(try await sandbox.citcon.createCharge(token: fresh, reference: "exp-4", amount: 100).status == 200)
            let expire = try await send(.post, sandbox.adminURL + "/tokens/expire?merchant=m1")
            #expect(expire.status == 204)
            let after = try await sandbox.citcon.createCharge(token: fresh, reference: "exp-5", amount: 100)
            #expect(after.code == "4010")
        }
    }

    @Test func clientTokenCannotCaptureButCanConfirm() async throws {
        try await withSandbox { sandbox in
            let server = try await sandbox.citcon.token()
            let client = try await sandbox.citcon.token(kind: "client")
            let created = try await sandbox.citcon.createCharge(
                token: server,
                reference: "cli-1",
                amount: 500,
                autoCapture: false
            )
            let confirmed = try await sandbox.citcon.confirm(
                token: client,
                chargeToken: try #require(created.string("charge_token"))
            )
            #expect(confirmed.string("status") == "authorized")
            let capture = try await sandbox.citcon.capture(
                token: client,
                id: try #require(created.string("id")),
                reference: "cli-1-cap",
                amount: 500
            )
            #expect(capture.status == 403)
        }
    }
}
