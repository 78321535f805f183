import Foundation
import ProviderSandbox
import Testing

@Suite struct SipsAutomaticResponseTests {
    static let secret = SipsTestMerchants.m1.secretKey

    private func order(_ sandbox: SipsTestSandbox, _ reference: String, url: String) async throws {
        let initReply = try await sandbox.client().initOrder(reference: reference, automaticResponseUrl: url)
        _ = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
    }

    @Test func sha256VariantSealsDataFollowedByTheSecret() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox({
                $0.automaticResponseSeal = .sha256
                $0.automaticResponseInterfaceVersion = "HP_2.40"
            }) { sandbox in
                try await order(sandbox, "sha1", url: url)
                try await eventually("automatic response") { await inbox.received.count == 1 }
                let response = try #require(await inbox.received.first)
                #expect(response.sha256SealVerifies(secret: Self.secret))
                #expect(!response.hmacSealVerifies(secret: Self.secret))
                #expect(response["sealAlgorithm"] == "SHA-256")
                #expect(response.form["InterfaceVersion"] == "HP_2.40")
                #expect(response["responseCode"] == "00")
            }
        }
    }

    @Test func base64VariantSealsTheEncodedText() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox({ $0.automaticResponseBase64 = true }) { sandbox in
                try await order(sandbox, "b64a", url: url)
                try await eventually("automatic response") { await inbox.received.count == 1 }
                let response = try #require(await inbox.received.first)
                #expect(response.form["Encode"] == "base64")
                #expect(!(response.form["Data"] ?? "").contains("|"))
                #expect(response.hmacSealVerifies(secret: Self.secret))
                #expect(response["transactionReference"] == "b64a")
                #expect(response["amount"] == "1000")
            }
        }
    }

    @Test func unacknowledgedResponsesAreResentUntil2xx() async throws {
        try await withSipsReceiver(failFirst: 2) { url, inbox in
            try await withSipsSandbox { sandbox in
                try await order(sandbox, "retry1", url: url)
                try await eventually("acknowledged delivery") { await inbox.received.count == 1 }
                #expect(await inbox.hits == 3)
                // The sandbox records an attempt once its answer is in, which can be just after the receiver counted it.
                var list: [[String: Any]] = []
                try await eventually("three attempts recorded") {
                    list = (try? await send(.get, sandbox.admin + "/notifications").json as? [[String: Any]]) ?? []
                    return list.count == 3
                }
                #expect(list.count == 3)
                #expect(list.map { $0["acknowledged"] as? Bool } == [false, false, true])
                #expect(list.allSatisfy { $0["subject"] as? String == "retry1" })
                #expect(await sandbox.sips.ledger().count == 1)
            }
        }
    }

    @Test func badSignatureFaultCorruptsTheSeal() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                await sandbox.sips.addFaults([SandboxFault(kind: .badSignature, count: 1)])
                try await order(sandbox, "bad1", url: url)
                try await order(sandbox, "bad2", url: url)
                try await eventually("two responses") { await inbox.received.count == 2 }
                #expect(await inbox.about("bad1").first?.hmacSealVerifies(secret: Self.secret) == false)
                #expect(await inbox.about("bad2").first?.hmacSealVerifies(secret: Self.secret) == true)
            }
        }
    }
}
