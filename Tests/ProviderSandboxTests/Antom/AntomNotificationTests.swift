import Foundation
import ProviderSandbox
import Testing

@Suite struct AntomNotificationTests {
    @Test func notificationsAreResentUntilTheExactAcknowledgement() async throws {
        try await withAntomReceiver(nonAcks: 2, nonAckBody: #"{"result":{"resultStatus":"F"}}"#) { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "ack-1", amount: 100, notifyURL: hooks + "/notify", authState: nil))
                try await sandbox.antom.completeSession(paymentSessionId: session.string("paymentSessionId") ?? "")
                try await eventually("acknowledged") { await inbox.received.count == 1 }
                #expect(await inbox.hits == 3)
                try await eventually("attempts recorded") { await sandbox.antom.notificationAttempts().count == 3 }
                let attempts = await sandbox.antom.notificationAttempts()
                #expect(attempts.map(\.acknowledged) == [false, false, true])
                #expect(attempts.allSatisfy { $0.statusCode == 200 && $0.provider == "antom" })
                #expect(attempts.allSatisfy { $0.merchant == sandbox.clientId })
                let served = try await send(.get, sandbox.admin + "/notifications")
                #expect((served.json as? [Any])?.count == 3)
            }
        }
    }

    @Test func plainOKIsNotAnAcknowledgement() async throws {
        try await withAntomReceiver(nonAcks: 1, nonAckBody: "OK") { hooks, inbox in
            try await withAntomSandbox { sandbox in
                let client = try await sandbox.client()
                let session = try await client.call(
                    "payments/createPaymentSession",
                    AntomBodies.session(requestId: "ack-2", amount: 100, notifyURL: hooks + "/notify", authState: nil))
                try await sandbox.antom.completeSession(paymentSessionId: session.string("paymentSessionId") ?? "")
                try await eventually("acknowledged") { await inbox.received.count == 1 }
                #expect(await inbox.hits == 2)
            }
        }
    }

    @Test func badSignatureFaultSendsANotificationThatDoesNotVerify() async throws {
        try await withAntomReceiver { hooks, inbox in
            try await withAntomSandbox { sandbox in
                await sandbox.antom.addFaults([SandboxFault(kind: .badSignature, merchant: sandbox.clientId, count: 1)])
                let client = try await sandbox.client()
                for requestId in ["bad-1", "bad-2"] {
                    let session = try await client.call(
                        "payments/createPaymentSession",
                        AntomBodies.session(
                            requestId: requestId, amount: 100, notifyURL: hooks + "/notify", authState: nil))
                    try await sandbox.antom.completeSession(paymentSessionId: session.string("paymentSessionId") ?? "")
                    try await eventually("delivered") {
                        await inbox.received.contains { $0.string("paymentRequestId") == requestId }
                    }
                }
                let key = try await sandbox.antom.publicKey()
                let received = await inbox.received
                #expect(received.first { $0.string("paymentRequestId") == "bad-1" }?.verifies(with: key) == false)
                #expect(received.first { $0.string("paymentRequestId") == "bad-2" }?.verifies(with: key) == true)
            }
        }
    }
}
